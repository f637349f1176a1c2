// The newsletter form of the footer and the blog, loaded after the page: it brings formik and yup
// (and supabase-js on submit), which nothing else on a marketing page needs. It loads once the
// page is idle, or earlier when it nears the screen; its space is held meanwhile, so nothing
// below it moves when it arrives.
import { Suspense, useEffect, useRef, useState, type ComponentProps, type RefObject } from 'react';
import { Box } from '@chakra-ui/react';
import { lazyPage } from './lazy-page';

const LazyNewsletterForm = lazyPage(() => import('../features/newsletter'), 'NewsletterForm');

/** The form's resting height: its title line, the gap and the e-mail field's row. */
const FORM_HEIGHT = '72px';
/** How close to the screen the slot may come before the form loads anyway. */
const NEAR_SCREEN = '600px';

/** Calls `load` once: when the page is idle after loading, or when `target` nears the screen. */
function useLoadWhenIdleOrNear(target: RefObject<HTMLElement | null>, load: () => void) {
  useEffect(() => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      load();
    };
    const cleanups: (() => void)[] = [];
    const element = target.current;
    if (element && typeof IntersectionObserver !== 'undefined') {
      const observer = new IntersectionObserver(
        (entries) => entries.some((entry) => entry.isIntersecting) && once(),
        { rootMargin: NEAR_SCREEN },
      );
      observer.observe(element);
      cleanups.push(() => observer.disconnect());
    }
    const whenIdle = () => {
      if (typeof requestIdleCallback === 'function') {
        const id = requestIdleCallback(once, { timeout: 2000 });
        cleanups.push(() => cancelIdleCallback(id));
      } else {
        const id = setTimeout(once, 0);
        cleanups.push(() => clearTimeout(id));
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else {
      window.addEventListener('load', whenIdle, { once: true });
      cleanups.push(() => window.removeEventListener('load', whenIdle));
    }
    return () => cleanups.forEach((cleanup) => cleanup());
  }, [target, load]);
}

export function NewsletterForm(props: ComponentProps<typeof LazyNewsletterForm>) {
  const slot = useRef<HTMLDivElement>(null);
  const [show, setShow] = useState(false);
  const [load] = useState(() => () => {
    // Render only once the chunk is here: the held space is swapped for the form in one step.
    void LazyNewsletterForm.preload().finally(() => setShow(true));
  });
  useLoadWhenIdleOrNear(slot, load);
  const placeholder = <Box ref={slot} minH={FORM_HEIGHT} />;
  if (!show) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LazyNewsletterForm {...props} />
    </Suspense>
  );
}
