// Wraps a page module's named export in React.lazy, so each page becomes its own chunk. A page
// whose chunk is already loaded (see `preload`) renders at once instead of suspending: the first
// page of a visit is loaded before the app renders (src/main.tsx), so it never shows the loading
// spinner, and nothing moves when it arrives. Each page renders inside the query scope, whose
// chunk (TanStack Query) loads alongside the page's.
import { createElement, lazy, useState, type ComponentType } from 'react';
import { loadLaterRecipes } from '../components/theme/use-later-recipes';
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
): LazyPage<PageProps<M, K>> {
  type P = PageProps<M, K>;
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchPage = () =>
    (loading ??= Promise.all([load(), import('./query-scope'), loadLaterRecipes(appSystem())]).then(
      ([module, { withQueryScope }]) =>
        (loaded = withQueryScope(module[name] as ComponentType<P & object>) as ComponentType<P>),
      (error: unknown) => {
        // A failed chunk may be fetched again on the next attempt.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await fetchPage() }));
  const Page = (props: P) => {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount the
    // page and lose its state.
    const [Component] = useState(() => (loaded ?? Lazy) as ComponentType<P>);
    return createElement(Component as ComponentType<object>, props as object);
  };
  Page.preload = () => fetchPage().then(() => undefined);
  return Page;
}
