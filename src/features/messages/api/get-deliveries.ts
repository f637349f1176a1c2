// Re-reads the notification e-mail status of messages whose e-mail is still pending or being
// sent. email_deliveries is not in the realtime publication (its rows change on every attempt
// and carry the rendered mail), so the inbox polls these few rows while any is in flight.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { setCachedDeliveries } from '../message-cache';
import { toDelivery } from '../message-fields';
import { isUuid } from '../message-query';
import type { Message } from '../types';
import { messagesKeys } from './query-keys';

/** How often an in-flight delivery is re-read. */
export const DELIVERY_POLL_MS = 10_000;
/** Ids per request, to keep the URL short. */
const IDS_PER_REQUEST = 100;

const DELIVERY_COLUMNS = 'entry_id, status, attempts, last_error, next_attempt_at, sent_at';

/** The current delivery of each message; a message without one maps to null. */
async function getDeliveries(
  entryIds: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, Message['delivery']>> {
  const ids = entryIds.filter(isUuid);
  const result = new Map<string, Message['delivery']>(ids.map((id) => [id, null]));
  for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
    let query = supabase
      .from('email_deliveries')
      .select(DELIVERY_COLUMNS)
      .in('entry_id', ids.slice(start, start + IDS_PER_REQUEST));
    if (signal) query = query.abortSignal(signal);
    const { data, error } = await query;
    if (error) throw error;
    for (const row of (data ?? []) as Record<string, unknown>[]) {
      const entryId = String(row.entry_id);
      const delivery = toDelivery(row);
      result.set(entryId, delivery);
    }
  }
  return result;
}

/**
 * While `entryIds` is not empty, re-reads their deliveries every DELIVERY_POLL_MS and writes them
 * into the cached messages; as they settle, they drop out of `entryIds` and polling stops.
 */
export function useDeliveryPolling(entryIds: readonly string[]) {
  const client = useQueryClient();
  const ids = [...entryIds].sort();
  return useQuery({
    queryKey: messagesKeys.deliveries(ids),
    queryFn: async ({ signal }) => {
      const deliveries = await getDeliveries(ids, signal);
      setCachedDeliveries(client, deliveries);
      return ids.length;
    },
    enabled: ids.length > 0,
    refetchInterval: DELIVERY_POLL_MS,
    // The first read is due only after an interval: the list was just read with these statuses.
    initialData: ids.length,
    initialDataUpdatedAt: () => Date.now(),
    staleTime: DELIVERY_POLL_MS,
    gcTime: 0,
    // It writes into the lists; its own result is shown nowhere, so it never renders the inbox
    // (a message arriving with its e-mail in flight changes the key: a new query each time).
    notifyOnChangeProps: [],
  });
}
