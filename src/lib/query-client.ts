// The app's one TanStack Query client: how long server data stays fresh and when to retry.
import { QueryClient } from '@tanstack/react-query';

/** HTTP-like status carried by supabase-js and fetch errors, when there is one. */
function statusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Realtime keeps the dashboard's lists current, so refetching on every mount is waste.
        staleTime: 30_000,
        // A refused request (4xx) will be refused again; network hiccups get two more tries.
        retry: (failures, error) => {
          const status = statusOf(error);
          if (status !== undefined && status >= 400 && status < 500) return false;
          return failures < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}
