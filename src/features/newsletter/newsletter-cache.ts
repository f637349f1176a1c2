// How a change of a subscriber or a campaign reaches the cached data: a signup, confirmation,
// unsubscription or bounce joins or updates its list's subscribers (newest first), and a
// campaign's status and counts follow its sending. The same rules serve Realtime's reports.
import type { QueryClient } from '@tanstack/react-query';
import { changedId, mergeIntoList, type RowChange } from '../../lib/merge-change';
import { refetchSoon } from '../../lib/refetch-soon';
import { newsletterKeys } from './api/query-keys';
import type { Campaign, Subscriber } from './newsletter-types';

const newestFirst = (
  a: { created_at: string; id: string },
  b: { created_at: string; id: string },
) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** How long changes of subscribers are gathered before they reach the cache together. */
const SUBSCRIBER_BATCH_MS = 100;
const pendingSubscriberChanges = new WeakMap<QueryClient, RowChange[]>();

/** The changes applied to one list's rows in one pass, newest first again at the end. */
function applyAll(rows: Subscriber[], listId: string, changes: readonly RowChange[]) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  let changed = false;
  for (const change of changes) {
    const id = changedId(change);
    if (!id) continue;
    if (change.eventType === 'DELETE') {
      changed = byId.delete(id) || changed;
      continue;
    }
    const row = { ...byId.get(id), ...change.new } as Subscriber;
    if (row.list_id === listId && typeof row.email === 'string' && typeof row.status === 'string') {
      byId.set(id, row);
      changed = true;
    } else changed = byId.delete(id) || changed;
  }
  return changed ? [...byId.values()].sort(newestFirst) : rows;
}

function flushSubscriberChanges(client: QueryClient) {
  const changes = pendingSubscriberChanges.get(client) ?? [];
  pendingSubscriberChanges.delete(client);
  for (const query of client
    .getQueryCache()
    .findAll({ queryKey: newsletterKeys.subscriberLists() })) {
    const listId = query.queryKey[2];
    if (typeof listId !== 'string') continue;
    client.setQueryData<Subscriber[]>(query.queryKey, (rows) =>
      rows ? applyAll(rows, listId, changes) : rows,
    );
  }
}

/**
 * Applies a change of a `list_subscribers` row to the cached subscribers of its list. An import
 * reports every added row, thousands at once: the changes of a short window are applied together,
 * one pass over each list instead of one per change.
 */
export function applySubscriberChange(client: QueryClient, change: RowChange): void {
  const pending = pendingSubscriberChanges.get(client);
  if (pending) pending.push(change);
  else {
    pendingSubscriberChanges.set(client, [change]);
    setTimeout(() => flushSubscriberChanges(client), SUBSCRIBER_BATCH_MS);
  }
  refetchSoon(client, newsletterKeys.confirmedCounts());
}

/** Applies one change of a `campaigns` row to the campaigns list and to its own page. */
export function applyCampaignChange(client: QueryClient, change: RowChange): void {
  const id = changedId(change);
  client.setQueryData<Campaign[]>(newsletterKeys.campaigns(), (rows) =>
    mergeIntoList<Campaign>(rows, change, {
      include: (row) => typeof row.status === 'string' && typeof row.created_at === 'string',
      compare: newestFirst,
    }),
  );
  if (!id) return;
  if (change.eventType === 'DELETE') {
    client.setQueryData<Campaign | null>(newsletterKeys.campaign(id), (row) =>
      row === undefined ? row : null,
    );
    return;
  }
  client.setQueryData<Campaign | null>(newsletterKeys.campaign(id), (row) =>
    row ? ({ ...row, ...change.new } as Campaign) : row,
  );
}
