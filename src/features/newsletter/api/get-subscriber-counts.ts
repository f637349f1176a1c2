// How many subscribers a list has in each status: head counts, no rows read, one per status and
// all at once. The table's pages never hold the whole list, so the counts cannot come from them.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { SUBSCRIBER_STATUSES, type SubscriberStatus } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

export type SubscriberCounts = Record<SubscriberStatus, number>;

async function countWithStatus(
  listId: string,
  status: SubscriberStatus,
  signal: AbortSignal,
): Promise<number> {
  const { count, error } = await supabase
    .from('list_subscribers')
    .select('id', { count: 'exact', head: true })
    .eq('list_id', listId)
    .eq('status', status)
    .abortSignal(signal);
  if (error) throw error;
  return count ?? 0;
}

async function getSubscriberCounts(listId: string, signal: AbortSignal): Promise<SubscriberCounts> {
  const counts = await Promise.all(
    SUBSCRIBER_STATUSES.map((status) => countWithStatus(listId, status, signal)),
  );
  return Object.fromEntries(
    SUBSCRIBER_STATUSES.map((status, i) => [status, counts[i]]),
  ) as SubscriberCounts;
}

export function useSubscriberCounts(listId: string) {
  return useQuery({
    queryKey: newsletterKeys.subscriberCounts(listId),
    queryFn: ({ signal }) => getSubscriberCounts(listId, signal),
  });
}
