// The inbox's cached lists and messages, changed in place: a change of an entry (from Realtime or
// an optimistic update) is merged into every cached list it concerns and into the cached message;
// lists that would need a row they never loaded are marked stale instead. Snapshots let a failed
// mutation put everything back.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { RowChange } from '../../lib/merge-change';
import { filterOfKey, messagesKeys } from './api/query-keys';
import {
  listRows,
  mergeEntryChange,
  deliveryPatches,
  mergeEntryDetail,
  withPatches,
  type MessagePages,
} from './merge-messages';
import type { Message } from './types';

/** Merges one change into every cached list and the cached message. */
export function applyEntryChange(client: QueryClient, change: RowChange, row?: Message): void {
  for (const [key, data] of client.getQueriesData<MessagePages>({
    queryKey: messagesKeys.lists(),
  })) {
    const filter = filterOfKey(key);
    if (!filter || !data) continue;
    const outcome = mergeEntryChange(data, change, filter, row);
    if (outcome.stale) {
      void client.invalidateQueries({ queryKey: key, exact: true });
    } else if (outcome.data !== data) {
      client.setQueryData(key, outcome.data);
    }
  }
  for (const [key, detail] of client.getQueriesData<Message | null>({
    queryKey: messagesKeys.details(),
  })) {
    const next = mergeEntryDetail(detail, change);
    if (next !== detail) client.setQueryData(key, next);
  }
}

/** The message with this id from any cached list or detail. */
function findCachedMessage(client: QueryClient, id: string): Message | undefined {
  const detail = client.getQueryData<Message | null>(messagesKeys.detail(id));
  if (detail) return detail;
  for (const [, data] of client.getQueriesData<MessagePages>({ queryKey: messagesKeys.lists() })) {
    const row = listRows(data).find((message) => message.id === id);
    if (row) return row;
  }
  return undefined;
}

export type MessagePatch = Partial<Pick<Message, 'read_at' | 'is_spam'>>;

/** Applies a flag change to the cached messages, as the server will (optimistic update). */
export function patchCachedMessages(
  client: QueryClient,
  ids: readonly string[],
  patch: MessagePatch,
): void {
  for (const id of ids) {
    const known = findCachedMessage(client, id);
    if (!known) continue;
    const { form: _form, delivery: _delivery, arrivedLive: _live, ...columns } = known;
    applyEntryChange(client, {
      table: 'entries',
      eventType: 'UPDATE',
      new: { ...columns, ...patch },
      old: { id },
    });
  }
}

/** Removes messages from every cached list and marks their cached detail as gone. */
export function removeCachedMessages(client: QueryClient, ids: readonly string[]): void {
  for (const id of ids) {
    applyEntryChange(client, { table: 'entries', eventType: 'DELETE', new: {}, old: { id } });
  }
}

/** Writes fresh delivery states into every cached list and message. */
export function setCachedDeliveries(
  client: QueryClient,
  deliveries: ReadonlyMap<string, Message['delivery']>,
): void {
  completeCachedMessages(client, deliveryPatches(deliveries));
}

/**
 * Changes the messages named in `patches` (fields the server filled in: form, delivery) in every
 * cached list and message, leaving every other field as the cache has it.
 */
export function completeCachedMessages(
  client: QueryClient,
  patches: ReadonlyMap<string, Partial<Message>>,
): void {
  if (patches.size === 0) return;
  for (const [key, data] of client.getQueriesData<MessagePages>({
    queryKey: messagesKeys.lists(),
  })) {
    const next = withPatches(data, patches);
    if (next !== data) client.setQueryData(key, next);
  }
  for (const [id, patch] of patches) {
    const detail = client.getQueryData<Message | null>(messagesKeys.detail(id));
    if (detail) client.setQueryData(messagesKeys.detail(id), { ...detail, ...patch });
  }
}

export type MessagesSnapshot = [QueryKey, unknown][];

/** Every cached list and message, to restore after a failed optimistic update. */
export function snapshotMessages(client: QueryClient): MessagesSnapshot {
  return [
    ...client.getQueriesData({ queryKey: messagesKeys.lists() }),
    ...client.getQueriesData({ queryKey: messagesKeys.details() }),
  ];
}

export function restoreMessages(client: QueryClient, snapshot: MessagesSnapshot): void {
  for (const [key, data] of snapshot) client.setQueryData(key, data);
}
