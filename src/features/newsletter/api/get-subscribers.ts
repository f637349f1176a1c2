// One page of a list's subscribers, newest first (created_at, then id: a stable order however
// many signups share a second), narrowed by the search (e-mail or name) and the status filter on
// the server, with the number of rows that match. The table keeps the page it shows while the
// next one loads; Realtime keeps the pages current (newsletter-cache.ts).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Subscriber } from '../newsletter-types';
import {
  SUBSCRIBERS_PAGE_SIZE,
  subscriberSearchFilter,
  type SubscriberPage,
  type SubscriberPageQuery,
} from '../subscriber-query';
import { newsletterKeys } from './query-keys';

export const SUBSCRIBER_COLUMNS =
  'id, list_id, user_id, email, name, status, source, consent_at, consent_statement, created_at, confirmed_at, unsubscribed_at, bounced_at';

async function getSubscriberPage(
  listId: string,
  { search, status, page }: SubscriberPageQuery,
  signal: AbortSignal,
): Promise<SubscriberPage> {
  const from = page * SUBSCRIBERS_PAGE_SIZE;
  // An exact count: "of 1,234" is a number the owner reads, and the planner's estimate of one
  // list's rows under a search can be off by orders of magnitude. It counts only that list's
  // matching rows, in the same request as the page.
  let query = supabase
    .from('list_subscribers')
    .select(SUBSCRIBER_COLUMNS, { count: 'exact' })
    .eq('list_id', listId);
  if (status) query = query.eq('status', status);
  const searchFilter = subscriberSearchFilter(search);
  if (searchFilter) query = query.or(searchFilter);
  const { data, count, error } = await query
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, from + SUBSCRIBERS_PAGE_SIZE - 1)
    .abortSignal(signal);
  if (error) throw error;
  return { rows: (data ?? []) as Subscriber[], total: count ?? 0 };
}

export function useSubscriberPage(listId: string, query: SubscriberPageQuery) {
  return useQuery({
    queryKey: newsletterKeys.subscriberPage(listId, query),
    queryFn: ({ signal }) => getSubscriberPage(listId, query, signal),
    // The page shown stays while the next page, search or filter loads (no empty flash), but never
    // another list's rows.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === listId ? previous : undefined,
  });
}
