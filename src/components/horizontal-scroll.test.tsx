// The sideways scroll box: a focusable, named region with edge fades only while it overflows.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { HorizontalScroll } from './horizontal-scroll';
import { renderWithProviders } from './testing/render';

// jsdom lays nothing out: give every element the sizes of a box narrower than its content.
function layout(scrollWidth: number, clientWidth: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scrollWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(clientWidth);
}

const cues = (container: HTMLElement) =>
  Array.from(container.querySelectorAll('[data-scroll-cue]')).map((el) =>
    el.getAttribute('data-scroll-cue'),
  );

/**
 * A ResizeObserver that reports each observed element once, as a browser does at the next layout
 * after `observe` (the component takes its first reading from that report).
 */
class ReportingResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      act(() =>
        this.callback([{ target } as ResizeObserverEntry], this as unknown as ResizeObserver),
      ),
    );
  }
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', ReportingResizeObserver);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('HorizontalScroll', () => {
  it('is a named, focusable region with a fade at the end while its content overflows', async () => {
    layout(600, 200);
    const { container } = renderWithProviders(
      <HorizontalScroll label="Shell code">
        <pre>npm run a-very-long-command</pre>
      </HorizontalScroll>,
    );
    const region = await screen.findByRole('region', { name: 'Shell code' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(cues(container)).toEqual(['end']);

    // Scrolled to the far end: the fade moves to the start.
    region.scrollLeft = 400;
    fireEvent.scroll(region);
    expect(cues(container)).toEqual(['start']);
    region.scrollLeft = 150;
    fireEvent.scroll(region);
    expect(cues(container)).toEqual(['start', 'end']);
  });

  it('adds no tab stop, region or fade when the content fits', async () => {
    layout(200, 200);
    const { container } = renderWithProviders(
      <HorizontalScroll label="Shell code">
        <pre>ls</pre>
      </HorizontalScroll>,
    );
    await act(() => Promise.resolve());
    expect(screen.queryByRole('region')).toBeNull();
    expect(container.querySelector('[tabindex]')).toBeNull();
    expect(cues(container)).toEqual([]);
  });
});
