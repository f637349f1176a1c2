// Query keys of the inbox, in one place: the fetchers, the mutations' optimistic updates and the
// realtime bindings all address the same cache entries.
import type { MessageFilter } from '../types';

export const messagesKeys = {
  all: ['messages'] as const,
  lists: () => ['messages', 'list'] as const,
  list: (filter: MessageFilter) => ['messages', 'list', filter] as const,
  details: () => ['messages', 'detail'] as const,
  detail: (id: string) => ['messages', 'detail', id] as const,
  unread: () => ['messages', 'unread'] as const,
  counts: () => ['messages', 'counts'] as const,
  deliveries: (entryIds: readonly string[]) => ['messages', 'deliveries', entryIds] as const,
};

/** The filter of a list's query key, or undefined for any other key. */
export function filterOfKey(key: readonly unknown[]): MessageFilter | undefined {
  if (key[0] !== 'messages' || key[1] !== 'list') return undefined;
  const filter = key[2] as MessageFilter | undefined;
  return filter && typeof filter === 'object' ? filter : undefined;
}
