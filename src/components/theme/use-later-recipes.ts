// The recipes the app does not start with (later-recipes.ts), loaded once per design system by
// what renders their components: each lazy page (src/app/lazy-page.ts) and the pieces loaded
// after start-up, the profile menu and the toasts (`useLaterRecipes`).
import { use } from 'react';
import { useChakraContext, type SystemContext } from '@chakra-ui/react';
import { loadChunk } from '../../lib/chunk-load';
import { addRecipes } from './add-recipes';

const loading = new WeakMap<SystemContext, Promise<void>>();

/**
 * Adds the later recipes to `system` (once; a chunk that fails is retried, and tried again on the
 * next call).
 */
export function loadLaterRecipes(system: SystemContext): Promise<void> {
  let promise = loading.get(system);
  if (!promise) {
    promise = loadChunk(() => import('./later-recipes'), 'laterRecipes').then(
      (module) => addRecipes(system, module.laterRecipes),
      (error: unknown) => {
        loading.delete(system);
        throw error;
      },
    );
    loading.set(system, promise);
  }
  return promise;
}

/** Suspends the calling component until the design system in context has the later recipes. */
export function useLaterRecipes(): void {
  use(loadLaterRecipes(useChakraContext()));
}
