// Whether the app can reach its API: the browser's own online state, and what the requests to the
// API last found (fetch-with-timeout.ts reports each one; the live channel reports its joins).
// While the API is unreachable, a tiny probe asks every few seconds whether it is back, so what
// waits for it (TanStack Query's onlineManager, src/lib/query-client.ts, and the dashboard's live
// indicator) learns of it without anyone pressing a button.
import { env } from '../config/env';

interface ConnectionState {
  /** `navigator.onLine`, kept current by the window's online/offline events. */
  browserOnline: boolean;
  /** False after a request found no server (network failure or timeout), until one answers. */
  apiReachable: boolean;
}

export interface ConnectionMonitor {
  getSnapshot: () => ConnectionState;
  /** For useSyncExternalStore; also used to feed TanStack Query's onlineManager. */
  subscribe: (listener: () => void) => () => void;
  /** Both: the browser is online and the API answers. */
  isOnline: () => boolean;
  /** A request's outcome: true when the server answered, false when it could not be reached. */
  report: (reachable: boolean) => void;
  /** Asks the API now (e.g. when the live channel dropped); resolves with the answer. */
  check: () => Promise<boolean>;
  /** Stops listening and probing (tests). */
  dispose: () => void;
}

/** How often an unreachable API is asked whether it is back. */
const PROBE_INTERVAL_MS = 5_000;
/** How long a probe waits for an answer. */
const PROBE_TIMEOUT_MS = 5_000;

export interface MonitorOptions {
  /** Resolves true when the API answered (any status), false when it could not be reached. */
  probe: () => Promise<boolean>;
  probeIntervalMs?: number;
  /** Where the online/offline events come from (the browser's window). */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
  initiallyOnline?: boolean;
}

export function createConnectionMonitor({
  probe,
  probeIntervalMs = PROBE_INTERVAL_MS,
  target = typeof window === 'undefined' ? null : window,
  initiallyOnline = typeof navigator === 'undefined' ? true : navigator.onLine !== false,
}: MonitorOptions): ConnectionMonitor {
  let state: ConnectionState = { browserOnline: initiallyOnline, apiReachable: true };
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let probing: Promise<boolean> | undefined;
  let disposed = false;

  const set = (next: Partial<ConnectionState>) => {
    const merged = { ...state, ...next };
    if (
      merged.browserOnline === state.browserOnline &&
      merged.apiReachable === state.apiReachable
    ) {
      return;
    }
    state = merged;
    listeners.forEach((listener) => listener());
  };

  const stopProbing = () => {
    clearTimeout(timer);
    timer = undefined;
  };

  /** Probes again later while the API is unreachable and the browser online. */
  const scheduleProbe = () => {
    if (disposed || timer || state.apiReachable || !state.browserOnline) return;
    timer = setTimeout(() => {
      timer = undefined;
      void check();
    }, probeIntervalMs);
  };

  const report = (reachable: boolean) => {
    set({ apiReachable: reachable });
    if (reachable) stopProbing();
    else scheduleProbe();
  };

  const check = (): Promise<boolean> => {
    probing ??= probe()
      .catch(() => false)
      .then((reachable) => {
        probing = undefined;
        if (!disposed) report(reachable);
        return reachable;
      });
    return probing;
  };

  const onOnline = () => {
    set({ browserOnline: true });
    // Back online: ask at once whether the API answers again.
    if (!state.apiReachable) void check();
  };
  const onOffline = () => {
    stopProbing();
    set({ browserOnline: false });
  };
  target?.addEventListener('online', onOnline);
  target?.addEventListener('offline', onOffline);

  return {
    getSnapshot: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isOnline: () => state.browserOnline && state.apiReachable,
    report,
    check,
    dispose: () => {
      disposed = true;
      stopProbing();
      target?.removeEventListener('online', onOnline);
      target?.removeEventListener('offline', onOffline);
      listeners.clear();
    },
  };
}

/**
 * Asks whether the server at `apiUrl` answers at all. `no-cors` needs no CORS headers and no
 * key: an answer of any status resolves, and only an unreachable server (or no answer within the
 * timeout) rejects.
 */
async function probeApi(apiUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await fetch(`${apiUrl.replace(/\/+$/, '')}/auth/v1/health`, {
      mode: 'no-cors',
      cache: 'no-store',
      credentials: 'omit',
      signal: controller.signal,
    });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The app's one monitor of its API. */
export const connection: ConnectionMonitor = createConnectionMonitor({
  probe: () => probeApi(env.supabaseUrl),
});
