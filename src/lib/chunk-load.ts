// Loads the app's lazy chunks (pages, the toasts' renderer, the profile menu, later recipes, the
// Supabase client) so that a failed download is not the end: a failure is handed to
// chunk-recovery.ts (retries with a short backoff; for pages, one guarded reload when the site
// was redeployed). That logic travels in one chunk with the error fallbacks (it is reached
// through components/fallbacks.tsx), fetched when the browser is idle after start-up or at the
// first failure, so the first page load carries only this.

export interface ChunkLoadOptions {
  /**
   * After the retries, reload the page (once) if the site answers: for pages, where a reload
   * lands on the page the visitor asked for. Pieces of a page (toasts, menus) never reload it.
   */
  reloadIfGone?: boolean;
}

type Fallbacks = typeof import('../components/fallbacks');
let loading: Promise<Fallbacks> | undefined;

/** The fallbacks' module (with the recovery) once it has been loaded. */
export let fallbacks: Fallbacks | undefined;

/**
 * Fetches what answers a failure, the recovery and the fallbacks (once; again after a failure):
 * when the browser is idle after start-up (src/app/app.tsx), or at the first failed chunk.
 */
export const loadFallbacks = () =>
  (loading ??= import('../components/fallbacks').then(
    (module) => (fallbacks = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));

/**
 * `load()` (a dynamic import), with a failure answered by chunk-recovery.ts. `exportName` is an
 * export the caller uses: a chunk retried by its address is checked for it (the bundler may have
 * put the module inside a shared chunk, whose own exports then hold the module's).
 */
export function loadChunk<T>(
  load: () => Promise<T>,
  exportName: keyof T & string,
  options?: ChunkLoadOptions,
): Promise<T> {
  return load().catch((error: unknown) =>
    // Without the recovery logic (it could not be fetched either), the failure stands.
    loadFallbacks().then(
      ({ recover }) => recover(load, exportName, error, options),
      () => Promise.reject(error),
    ),
  );
}
