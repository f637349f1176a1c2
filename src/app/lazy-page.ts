// Wraps a page module's named export in React.lazy, so each page becomes its own chunk.
import { lazy, type ComponentType } from 'react';

export function lazyPage<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(async () => ({
    default: (await load())[name] as ComponentType<M[K] extends ComponentType<infer P> ? P : never>,
  }));
}
