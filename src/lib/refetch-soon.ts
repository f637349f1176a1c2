// Realtime changes arrive in bursts (a form's submissions, a bulk action). Aggregates that follow
// them (counts, usage) are marked stale at once, and the ones on screen read again at most once
// per window: a burst costs one request per query, not one per change (each cancelling the last).
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

export const REFETCH_WINDOW_MS = 250;

const pending = new WeakMap<QueryClient, Map<string, QueryKey>>();

export function refetchSoon(client: QueryClient, queryKey: QueryKey): void {
  void client.invalidateQueries({ queryKey, refetchType: 'none' });
  let keys = pending.get(client);
  if (!keys) {
    const due = new Map<string, QueryKey>();
    keys = due;
    pending.set(client, due);
    setTimeout(() => {
      pending.delete(client);
      for (const key of due.values()) void client.refetchQueries({ queryKey: key, type: 'active' });
    }, REFETCH_WINDOW_MS);
  }
  // TanStack's own key hash: the same key however its objects' properties are ordered.
  keys.set(hashKey(queryKey), queryKey);
}
