// Wraps a page module's named export in React.lazy, so each page becomes its own chunk. A page
// whose chunk is already loaded (see `preload`) renders at once instead of suspending: the first
// page of a visit is loaded before the app renders (src/main.tsx), so it never shows the loading
// spinner, and nothing moves when it arrives. Each page renders inside the query scope, whose
// chunk (TanStack Query) loads alongside the page's.
//
// Each page has an error boundary of its own: a chunk that fails is tried again (src/lib/
// chunk-load.ts: retries, then one reload when the site answers, e.g. after a deploy), and what
// still fails (or a page that throws) shows the error panel in the page's place, with the header,
// footer and dashboard sidebar still usable; its 'Try again' mounts the page afresh and so loads
// it again. Going to another page leaves the failed one behind.
import { createElement, lazy, useState, type ComponentType } from 'react';
import { ErrorBoundary, PageErrorFallback } from '../components/error-boundary';
import { loadLaterRecipes } from '../components/theme/use-later-recipes';
import { loadChunk, type ChunkLoadOptions } from '../lib/chunk-load';
import { appSystem } from './theme';

type PageProps<M, K extends keyof M> = M[K] extends ComponentType<infer P> ? P : never;

export interface LazyPage<P> {
  (props: P): ReturnType<typeof createElement>;
  /** Loads the page's chunk (once); resolves when the page can render without suspending. */
  preload: () => Promise<void>;
}

export function lazyPage<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  /** Reload the page (once) when the chunk is gone: for pages, not for a piece of a page. */
  { reloadIfGone = true }: ChunkLoadOptions = {},
): LazyPage<PageProps<M, K>> {
  type P = PageProps<M, K>;
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchPage = () =>
    (loading ??= Promise.all([
      loadChunk(load, name, { reloadIfGone }),
      loadChunk(() => import('./query-scope'), 'withQueryScope', { reloadIfGone }),
      loadLaterRecipes(appSystem()),
    ]).then(
      ([module, { withQueryScope }]) =>
        (loaded = withQueryScope(module[name] as ComponentType<P & object>) as ComponentType<P>),
      (error: unknown) => {
        // A failed chunk may be fetched again on the next attempt.
        loading = undefined;
        throw error;
      },
    ));
  // React.lazy keeps a failure for good, so a page that failed gets a new lazy component for its
  // next mount ('Try again', or coming back to it), made once the failure is shown. Not one per
  // mount: a mount that suspended (or failed) is rendered afresh by React, and would only load the
  // chunk again instead of showing the failure.
  const freshLazy = () => lazy(async () => ({ default: await fetchPage() })) as ComponentType<P>;
  let Lazy = freshLazy();
  const Mounted = (props: P) => {
    // Chosen once per mount: switching from the lazy component to the loaded one later would
    // remount the page and lose its state.
    const [Component] = useState(() => loaded ?? Lazy);
    return createElement(Component as ComponentType<object>, props as object);
  };
  const Page = (props: P) =>
    createElement(
      ErrorBoundary,
      {
        fallback: (failure) => createElement(PageErrorFallback, failure),
        onError: () => {
          if (!loaded) Lazy = freshLazy();
        },
      },
      createElement(Mounted as ComponentType<object>, props as object),
    );
  Page.preload = () => fetchPage().then(() => undefined);
  return Page;
}
