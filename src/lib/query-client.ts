// The app's one TanStack Query client: how long server data stays fresh, when to retry, and what
// "online" means: the browser is online and the API answers (connection.ts). When that comes
// back, TanStack Query refetches what failed or went stale meanwhile (refetchOnReconnect).
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { connection } from './connection';
import { isTimeoutError } from './fetch-with-timeout';

/** HTTP-like status carried by supabase-js and fetch errors, when there is one. */
function statusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

/** Whether a failed query is worth another try: not a refusal (4xx), not a timeout. */
export function shouldRetry(failures: number, error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500) return false;
  // A server that gave no answer within the timeout already made the user wait long enough:
  // the error state (with its 'Try again') shows now, and the query heals when the API is back.
  if (isTimeoutError(error)) return false;
  return failures < 2;
}

/** Feeds TanStack Query's idea of online from the connection monitor (once per page). */
let onlineWired = false;
function wireOnlineManager() {
  if (onlineWired) return;
  onlineWired = true;
  onlineManager.setEventListener((setOnline) => {
    setOnline(connection.isOnline());
    return connection.subscribe(() => setOnline(connection.isOnline()));
  });
}

export function createQueryClient(): QueryClient {
  wireOnlineManager();
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Realtime keeps the dashboard's lists current, so refetching on every mount is waste.
        staleTime: 30_000,
        // A refused request (4xx) will be refused again; network hiccups get two more tries.
        retry: shouldRetry,
        // Requests are made (and fail visibly, with the screen's error state) even while the
        // connection is down, instead of pausing with a skeleton until it returns; what failed
        // is fetched again when it does.
        networkMode: 'always',
        // …which would otherwise turn refetching on reconnect off: what failed or went stale
        // while the API was away is fetched again when it answers.
        refetchOnReconnect: true,
      },
      // A mutation never waits silently for the connection: it runs, and fails with its error.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
