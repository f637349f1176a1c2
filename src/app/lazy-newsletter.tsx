// The newsletter form of the footer and the blog, loaded only when it may be used: it brings
// formik and yup (and supabase-js on submit), which nothing else on a marketing page needs. It
// loads when it nears the screen, or at the visitor's first key press, click or touch (a keyboard
// user tabbing down the page finds it in place); a visit that does neither never downloads it.
// Its space is held meanwhile, so nothing below it moves when it arrives.
import { Suspense, useEffect, useRef, useState, type ComponentProps, type RefObject } from 'react';
import { Box } from '@chakra-ui/react';
import { lazyPage } from './lazy-page';

// A piece of the page: should its chunk be gone, the page is not reloaded under the visitor.
const LazyNewsletterForm = lazyPage(() => import('../features/newsletter'), 'NewsletterForm', {
  reloadIfGone: false,
});

/** The form's resting height: its title line, the gap and the e-mail field's row. */
const FORM_HEIGHT = '72px';
/** How close to the screen the slot may come before the form loads: about a screen ahead. */
const NEAR_SCREEN = '1000px';
/** The first signs of a visitor acting on the page. */
const INTERACTIONS = ['keydown', 'pointerdown', 'touchstart', 'focusin'] as const;

/** Calls `load` once: when `target` nears the screen, or at the first interaction. */
function useLoadWhenNearOrUsed(target: RefObject<HTMLElement | null>, load: () => void) {
  useEffect(() => {
    let done = false;
    const cleanups: (() => void)[] = [];
    const cleanUp = () => cleanups.forEach((cleanup) => cleanup());
    const once = () => {
      if (done) return;
      done = true;
      cleanUp();
      load();
    };
    const element = target.current;
    if (element && typeof IntersectionObserver !== 'undefined') {
      const observer = new IntersectionObserver(
        (entries) => entries.some((entry) => entry.isIntersecting) && once(),
        { rootMargin: NEAR_SCREEN },
      );
      observer.observe(element);
      cleanups.push(() => observer.disconnect());
    } else {
      // Without IntersectionObserver, nothing would tell us it is near: load it.
      queueMicrotask(once);
    }
    for (const type of INTERACTIONS) {
      document.addEventListener(type, once, { capture: true, passive: true });
      cleanups.push(() => document.removeEventListener(type, once, { capture: true }));
    }
    return cleanUp;
  }, [target, load]);
}

export function NewsletterForm(props: ComponentProps<typeof LazyNewsletterForm>) {
  const slot = useRef<HTMLDivElement>(null);
  const [show, setShow] = useState(false);
  const [load] = useState(() => () => {
    // Render only once the chunk is here: the held space is swapped for the form in one step.
    // Should it fail to load (after its retries), the space stays empty and the page works on.
    LazyNewsletterForm.preload().then(
      () => setShow(true),
      () => undefined,
    );
  });
  useLoadWhenNearOrUsed(slot, load);
  const placeholder = <Box ref={slot} minH={FORM_HEIGHT} />;
  if (!show) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LazyNewsletterForm {...props} />
    </Suspense>
  );
}
