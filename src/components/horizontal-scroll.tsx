// A box whose content scrolls sideways (long code lines, wide tables) with a visible cue: a fade
// at each edge that has more to show. While it overflows it is a named, focusable region, so
// keyboard users can scroll it with the arrow keys (axe: scrollable-region-focusable); when it
// fits it is a plain box and adds no tab stop.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, type BoxProps } from '@chakra-ui/react';

export interface HorizontalScrollProps extends Omit<BoxProps, 'children'> {
  /** Accessible name of the region while it scrolls, e.g. "HTML form code". */
  label: string;
  /** The background the content sits on: the fades blend into it. */
  fadeColor?: string;
  children: ReactNode;
}

interface Edges {
  /** More content hidden before the visible part. */
  start: boolean;
  /** More content hidden after the visible part. */
  end: boolean;
}

// One pixel of slack: zoom levels produce fractional scroll positions.
function readEdges(el: HTMLElement): Edges {
  const hidden = el.scrollWidth - el.clientWidth;
  const offset = Math.abs(el.scrollLeft);
  return { start: hidden > 1 && offset > 1, end: hidden > 1 && offset < hidden - 1 };
}

export function HorizontalScroll({
  label,
  fadeColor = 'bg',
  children,
  ...boxProps
}: HorizontalScrollProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState<Edges>({ start: false, end: false });
  const scrollable = edges.start || edges.end;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const next = readEdges(el);
      setEdges((prev) => (prev.start === next.start && prev.end === next.end ? prev : next));
    };
    el.addEventListener('scroll', update, { passive: true });
    // The box and its content change size with the viewport, web fonts and late content. The
    // observer also reports each size once at the next layout, so the first reading needs no
    // layout of its own (many code blocks measured at once would force one each on a long page).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    if (observer) {
      observer.observe(el);
      for (const child of Array.from(el.children)) observer.observe(child);
    } else {
      update();
    }
    return () => {
      el.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, []);

  return (
    <Box position="relative" {...boxProps}>
      <Box
        ref={ref}
        overflowX="auto"
        data-scrollable={scrollable ? 'true' : undefined}
        {...(scrollable ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
        _focusVisible={{ outline: '2px solid', outlineColor: 'teal.500', outlineOffset: '-2px' }}
      >
        {children}
      </Box>
      {edges.start && <Fade side="start" color={fadeColor} />}
      {edges.end && <Fade side="end" color={fadeColor} />}
    </Box>
  );
}

function Fade({ side, color }: { side: 'start' | 'end'; color: string }) {
  return (
    <Box
      aria-hidden="true"
      data-scroll-cue={side}
      position="absolute"
      insetY={0}
      {...(side === 'start' ? { insetStart: 0 } : { insetEnd: 0 })}
      w={10}
      pointerEvents="none"
      bgGradient={side === 'start' ? 'to-r' : 'to-l'}
      gradientFrom={color}
      gradientTo="transparent"
    />
  );
}
