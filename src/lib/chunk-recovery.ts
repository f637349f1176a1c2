// What happens when one of the app's lazy chunks fails to load (chunk-load.ts hands the failure
// here): the chunk is tried again a couple of times with a short backoff, and a page whose chunk
// still fails while the site answers (the usual case after a deploy: the open tab asks for files
// the new version no longer has) is answered by one reload, guarded against reload loops.
// Whatever is left is thrown to the nearest error boundary, which offers a way out. Not part of
// the first page load: it travels with the error fallbacks (components/fallbacks.tsx), fetched
// when the browser is idle after start-up or at the first failure.
//
// Vite reports such a failure with its `vite:preloadError` event and then throws the same error
// from the import; every lazy chunk of the app is loaded through `loadChunk`, so the thrown error
// is what is answered here.
//
// A browser remembers a module that failed to load and answers a second import of the same URL
// with the same failure, so a retry imports the URL the error names with a query of its own.
import type { ChunkLoadOptions } from './chunk-load';

/** Waits before each retry (ms): a couple of tries, a short backoff. */
const RETRY_DELAYS_MS = [300, 1000] as const;
/** At most one automatic reload in this window, so a chunk that stays broken cannot loop. */
export const RELOAD_GUARD_MS = 60_000;
export const RELOAD_MARKER_KEY = 'tinyback:chunk-reload';

/** Browsers' messages for a script module (or a chunk's styles) that could not be loaded. */
const CHUNK_ERROR =
  /failed to fetch dynamically imported module|error loading dynamically imported module|importing a module script failed|unable to preload|failed to load module script|loading (css )?chunk .* failed/i;

const messageOf = (error: unknown): string =>
  error && typeof error === 'object' && typeof (error as Error).message === 'string'
    ? (error as Error).message
    : '';

export function isChunkLoadError(error: unknown): boolean {
  return CHUNK_ERROR.test(messageOf(error));
}

/** The chunk's address, when the browser's message names it (Chromium's and Firefox's do). */
export function chunkUrlOf(error: unknown): string | undefined {
  return messageOf(error).match(/(https?:\/\/\S+?\.[cm]?[jt]sx?)(\?\S*)?\b/)?.[1];
}

export interface ChunkLoadDeps {
  importUrl: (url: string) => Promise<unknown>;
  sleep: (ms: number) => Promise<void>;
  /** Whether the site answers (any status) for `url`, or for the page when no url is known. */
  siteAnswers: (url: string | undefined) => Promise<boolean>;
  /** Reloads the page unless it was reloaded for this reason moments ago; says whether it did. */
  reloadOnce: () => boolean;
}

const browserDeps: ChunkLoadDeps = {
  importUrl: (url) => import(/* @vite-ignore */ url),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  siteAnswers: async (url) => {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return false;
    try {
      await fetch(url ?? window.location.href, { method: 'HEAD', cache: 'no-store' });
      return true;
    } catch {
      return false;
    }
  },
  reloadOnce: () => reloadOnce(window.sessionStorage, () => window.location.reload()),
};

/** Reloads unless the marker says a reload happened within RELOAD_GUARD_MS. */
export function reloadOnce(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  reload: () => void,
  now = Date.now(),
): boolean {
  try {
    const last = Number(storage.getItem(RELOAD_MARKER_KEY));
    if (last && now - last >= 0 && now - last < RELOAD_GUARD_MS) return false;
    storage.setItem(RELOAD_MARKER_KEY, String(now));
  } catch {
    // Without storage there is no guard against a loop: no automatic reload.
    return false;
  }
  reload();
  return true;
}

/** Retried imports that worked, by the URL that failed: one module instance per chunk. */
const recovered = new Map<string, Promise<unknown>>();
let retrySequence = 0;
/**
 * The module that exports `exportName`: `chunk` itself, or (when the bundler put the module inside
 * a shared chunk and the app's import picks it out of that chunk's exports) the export of `chunk`
 * that holds it.
 */
export function moduleIn(chunk: unknown, exportName: string): unknown {
  if (chunk && typeof chunk === 'object') {
    if (exportName in chunk) return chunk;
    for (const value of Object.values(chunk)) {
      if (value && typeof value === 'object' && exportName in value) return value;
    }
  }
  return undefined;
}

async function retryImport<T>(
  load: () => Promise<T>,
  exportName: string,
  firstError: unknown,
  deps: ChunkLoadDeps,
): Promise<T> {
  let error = firstError;
  for (const delay of RETRY_DELAYS_MS) {
    await deps.sleep(delay);
    const url = chunkUrlOf(error);
    try {
      if (!url) return await load();
      let attempt = recovered.get(url);
      if (!attempt) {
        attempt = deps.importUrl(`${url}${url.includes('?') ? '&' : '?'}retry=${++retrySequence}`);
        const pending = attempt;
        recovered.set(url, pending);
        pending.catch(() => recovered.get(url) === pending && recovered.delete(url));
      }
      const module = moduleIn(await attempt, exportName);
      if (module) return module as T;
      // Not what the app's import gives: the chunk cannot stand in for it.
      throw error;
    } catch (next) {
      if (!isChunkLoadError(next)) throw next;
      error = next;
    }
  }
  throw error;
}

/**
 * Answers `error`, the failure of `load()` (a dynamic import): retried on a chunk failure; with
 * `reloadIfGone`, a page reload as the last resort. Other errors (a module that throws while it
 * runs) are passed on at once.
 */
export async function recover<T>(
  load: () => Promise<T>,
  exportName: string,
  error: unknown,
  { reloadIfGone = false }: ChunkLoadOptions = {},
  deps: ChunkLoadDeps = browserDeps,
): Promise<T> {
  if (!isChunkLoadError(error)) throw error;
  try {
    return await retryImport(load, exportName, error, deps);
  } catch (last) {
    if (
      reloadIfGone &&
      isChunkLoadError(last) &&
      (await deps.siteAnswers(chunkUrlOf(last))) &&
      deps.reloadOnce()
    ) {
      // The page is being replaced: nothing to render meanwhile.
      return new Promise<T>(() => {});
    }
    throw last;
  }
}
