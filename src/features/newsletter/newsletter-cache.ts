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

/** Applies one change of a `list_subscribers` row to the cached subscribers of its list. */
export function applySubscriberChange(client: QueryClient, change: RowChange): void {
  const listId = change.new.list_id ?? change.old.list_id;
  for (const query of client
    .getQueryCache()
    .findAll({ queryKey: newsletterKeys.subscriberLists() })) {
    const key = query.queryKey;
    // A delete carries only the key: it leaves whichever list holds the row.
    if (typeof listId === 'string' && key[2] !== listId) continue;
    client.setQueryData<Subscriber[]>(key, (rows) =>
      mergeIntoList<Subscriber>(rows, change, {
        include: (row) =>
          row.list_id === key[2] && typeof row.email === 'string' && typeof row.status === 'string',
        compare: newestFirst,
      }),
    );
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
