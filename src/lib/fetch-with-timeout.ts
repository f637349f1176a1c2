// Every request to the API ends: supabase-js is given this fetch (src/lib/supabase.ts), so a
// request the server does not answer within REQUEST_TIMEOUT_MS fails as a network failure does,
// and the screen that waits for it shows its error state instead of spinning forever. It also
// tells the connection monitor (connection.ts) what each request found: an answer of any kind
// means the API is reachable; a network failure or a timeout means it may not be.

/** How long a request may wait for the server's answer (its headers). */
const REQUEST_TIMEOUT_MS = 12_000;

/** Part of a timed-out request's message; `isTimeoutError` looks for it. */
const TIMEOUT_TEXT = 'no answer from the server within';

/**
 * The error a timed-out request rejects with. A TypeError whose message starts as the browser's
 * own network failure does ("Failed to fetch"), so supabase-js and the app's error texts treat it
 * as one ("Could not reach the server…").
 */
export class RequestTimeoutError extends TypeError {
  constructor(timeoutMs: number) {
    super(`Failed to fetch: ${TIMEOUT_TEXT} ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** Whether `error` (or supabase-js's wrapping of it, which keeps the message) is a timeout. */
export function isTimeoutError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.includes(TIMEOUT_TEXT);
}

export interface TimeoutOptions {
  timeoutMs?: number;
  /** Told after each request: true when the server answered, false when it could not be reached. */
  onOutcome?: (reachable: boolean) => void;
}

/** `fetchImpl` with a timeout on every request. The caller's own abort signal still works. */
export function fetchWithTimeout(
  fetchImpl: typeof fetch,
  { timeoutMs = REQUEST_TIMEOUT_MS, onOutcome }: TimeoutOptions = {},
): typeof fetch {
  return async (input, init) => {
    const callerSignal =
      init?.signal ??
      (typeof Request !== 'undefined' && input instanceof Request ? input.signal : null);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forwardAbort();
    else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const response = await fetchImpl(input, { ...init, signal: controller.signal });
      onOutcome?.(true);
      return response;
    } catch (error) {
      if (timedOut) {
        onOutcome?.(false);
        throw new RequestTimeoutError(timeoutMs);
      }
      // Cancelled by the caller (a page left, a query replaced): says nothing about the server.
      if (!callerSignal?.aborted && error instanceof TypeError) onOutcome?.(false);
      throw error;
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', forwardAbort);
    }
  };
}
