// How a change of a subscriber or a campaign reaches the cached data: a confirmation,
// unsubscription or bounce shows on the cached page that holds the row at once, a signup or a
// removal has the pages on screen read again (the server knows where a row falls among them), and
// a campaign's status and counts follow its sending. The same rules serve Realtime's reports.
import type { QueryClient } from '@tanstack/react-query';
import { changedId, mergeIntoList, type RowChange } from '../../lib/merge-change';
import { refetchSoon } from '../../lib/refetch-soon';
import { newsletterKeys } from './api/query-keys';
import type { SubscriberCounts } from './api/get-subscriber-counts';
import {
  SUBSCRIBER_STATUSES,
  type Campaign,
  type Subscriber,
  type SubscriberStatus,
} from './newsletter-types';
import type { SubscriberPage } from './subscriber-query';

const newestFirst = (
  a: { created_at: string; id: string },
  b: { created_at: string; id: string },
) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** How long changes of subscribers are gathered before they reach the cache together. */
const SUBSCRIBER_BATCH_MS = 100;
const pendingSubscriberChanges = new WeakMap<QueryClient, RowChange[]>();

/** What a burst of changes comes to: the rows to patch, the rows gone, the lists that changed. */
function summarise(changes: readonly RowChange[]) {
  const updated = new Map<string, Record<string, unknown>>();
  const deleted = new Set<string>();
  const lists = new Set<string>();
  for (const change of changes) {
    const id = changedId(change);
    if (!id) continue;
    if (change.eventType === 'DELETE') {
      updated.delete(id);
      deleted.add(id);
      continue;
    }
    deleted.delete(id);
    updated.set(id, { ...updated.get(id), ...change.new });
    if (typeof change.new.list_id === 'string') lists.add(change.new.list_id);
  }
  return { updated, deleted, lists };
}

/** A cached page with the changed rows patched in place and the deleted ones taken out. */
function patchPage(
  page: SubscriberPage,
  listId: string,
  { updated, deleted }: ReturnType<typeof summarise>,
): SubscriberPage {
  let removed = 0;
  let changed = false;
  const rows: Subscriber[] = [];
  for (const row of page.rows) {
    if (deleted.has(row.id)) {
      removed += 1;
      continue;
    }
    const values = updated.get(row.id);
    if (values && (values.list_id === undefined || values.list_id === listId)) {
      rows.push({ ...row, ...values } as Subscriber);
      changed = true;
    } else rows.push(row);
  }
  if (!removed && !changed) return page;
  return { rows, total: Math.max(0, page.total - removed) };
}

type Known = Map<string, { listId: string; status: SubscriberStatus }>;

/**
 * How the changes move the counts by status, per list, as far as the cache can tell: a new row
 * adds to its status; a row the cached pages hold moves from its status to the new one, or leaves
 * it when deleted. A change of a row no page holds is left to the counts' next read.
 */
function countMoves(known: Known, changes: readonly RowChange[]) {
  const moves = new Map<string, Partial<Record<SubscriberStatus, number>>>();
  const move = (listId: string, status: SubscriberStatus, by: number) => {
    const counts = moves.get(listId) ?? {};
    counts[status] = (counts[status] ?? 0) + by;
    moves.set(listId, counts);
  };
  for (const change of changes) {
    const id = changedId(change);
    if (!id) continue;
    const before = known.get(id);
    if (change.eventType === 'DELETE') {
      if (before) move(before.listId, before.status, -1);
      known.delete(id);
      continue;
    }
    const { list_id: listId, status } = change.new;
    if (typeof listId !== 'string' || !SUBSCRIBER_STATUSES.includes(status as SubscriberStatus))
      continue;
    const after = { listId, status: status as SubscriberStatus };
    if (before && before.status !== after.status) {
      move(before.listId, before.status, -1);
      move(listId, after.status, 1);
    } else if (!before && change.eventType === 'INSERT') move(listId, after.status, 1);
    known.set(id, after);
  }
  return moves;
}

function flushSubscriberChanges(client: QueryClient) {
  const changes = pendingSubscriberChanges.get(client) ?? [];
  pendingSubscriberChanges.delete(client);
  const summary = summarise(changes);
  const pages = client.getQueryCache().findAll({ queryKey: newsletterKeys.subscriberLists() });
  const known: Known = new Map();
  for (const query of pages)
    for (const row of (query.state.data as SubscriberPage | undefined)?.rows ?? [])
      known.set(row.id, { listId: row.list_id, status: row.status });
  // The counts by status move at once with what the cache knows; their read follows below.
  for (const [listId, moves] of countMoves(known, changes)) {
    const key = newsletterKeys.subscriberCounts(listId);
    const counts = client.getQueryData<SubscriberCounts>(key);
    if (!counts) continue;
    const next = { ...counts };
    for (const status of SUBSCRIBER_STATUSES)
      next[status] = Math.max(0, next[status] + (moves[status] ?? 0));
    client.setQueryData(key, next);
  }
  // What shows at once: a status that changed (a confirmation, an unsubscription, a bounce) and a
  // row that is gone, on every cached page that holds them.
  for (const query of pages) {
    const listId = query.queryKey[2];
    if (typeof listId !== 'string') continue;
    client.setQueryData<SubscriberPage>(query.queryKey, (page) =>
      page ? patchPage(page, listId, summary) : page,
    );
  }
  // What needs the server: where a new row falls among the pages, which rows a status filter now
  // holds, the totals and the counts. The pages on screen are read again once per window, however
  // long the burst (an import reports thousands of rows); the others when next shown.
  for (const listId of summary.lists) {
    refetchSoon(client, newsletterKeys.subscribers(listId));
    refetchSoon(client, newsletterKeys.subscriberCounts(listId));
  }
  // A deletion names only the row's id, not its list.
  if (summary.deleted.size > 0) {
    refetchSoon(client, newsletterKeys.subscriberLists());
    refetchSoon(client, newsletterKeys.subscriberCountLists());
  }
}

/**
 * Applies a change of a `list_subscribers` row to the cached pages of its list's subscribers. An
 * import reports every added row, thousands at once: the changes of a short window are applied
 * together, one pass over the cached pages instead of one per change.
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

/**
 * A subscriber the owner removed leaves every cached page of its list at once; the pages on screen
 * and the counts are then read again (the next rows move up, the totals drop).
 */
export function removeSubscriberFromPages(
  client: QueryClient,
  subscriber: Pick<Subscriber, 'id' | 'list_id'>,
): Promise<unknown> {
  const gone = { updated: new Map(), deleted: new Set([subscriber.id]), lists: new Set<string>() };
  client.setQueriesData<SubscriberPage>(
    { queryKey: newsletterKeys.subscribers(subscriber.list_id) },
    (page) => (page ? patchPage(page, subscriber.list_id, gone) : page),
  );
  return Promise.all([
    client.invalidateQueries({ queryKey: newsletterKeys.subscribers(subscriber.list_id) }),
    client.invalidateQueries({ queryKey: newsletterKeys.subscriberCounts(subscriber.list_id) }),
  ]);
}

/**
 * What a campaign action's answer says at once, on its page and in the campaigns list; then both
 * are read again (settled, either way), for what the answer does not say.
 */
export function patchCampaign(
  client: QueryClient,
  campaignId: string,
  merge: (row: Campaign) => Campaign,
): void {
  client.setQueryData<Campaign | null>(newsletterKeys.campaign(campaignId), (row) =>
    row ? merge(row) : row,
  );
  client.setQueryData<Campaign[]>(newsletterKeys.campaigns(), (rows) =>
    rows?.map((row) => (row.id === campaignId ? merge(row) : row)),
  );
}

export function refetchCampaign(client: QueryClient, campaignId: string): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: newsletterKeys.campaign(campaignId) }),
    client.invalidateQueries({ queryKey: newsletterKeys.campaigns() }),
  ]);
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
