// Every subscriber of a list that matches the table's search and filter, for the CSV export: read
// in chunks of 1 000 rows (the most the REST API answers at once), each after the last row of the
// one before (a keyset: signups arriving meanwhile neither repeat nor shift rows), until a chunk
// comes back empty, so a deployment that answers fewer rows per request still exports them all.
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Subscriber } from '../newsletter-types';
import {
  olderThanFilter,
  subscriberSearchFilter,
  type SubscriberPageQuery,
} from '../subscriber-query';
import { SUBSCRIBER_COLUMNS } from './get-subscribers';

const EXPORT_CHUNK_SIZE = 1000;

async function getAllSubscribers(
  listId: string,
  { search, status }: Omit<SubscriberPageQuery, 'page'>,
  signal?: AbortSignal,
): Promise<Subscriber[]> {
  const all: Subscriber[] = [];
  const searchFilter = subscriberSearchFilter(search);
  for (;;) {
    let query = supabase.from('list_subscribers').select(SUBSCRIBER_COLUMNS).eq('list_id', listId);
    if (status) query = query.eq('status', status);
    if (searchFilter) query = query.or(searchFilter);
    const last = all.at(-1);
    if (last) query = query.or(olderThanFilter(last));
    query = query
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(EXPORT_CHUNK_SIZE);
    if (signal) query = query.abortSignal(signal);
    const { data, error } = await query;
    if (error) throw error;
    const rows = (data ?? []) as Subscriber[];
    if (rows.length === 0) return all;
    all.push(...rows);
  }
}

/** The export's read, started by its button (a mutation: it runs when asked, and is not cached). */
export function useAllSubscribers() {
  return useMutation({
    mutationFn: ({ listId, ...filter }: { listId: string } & Omit<SubscriberPageQuery, 'page'>) =>
      getAllSubscribers(listId, filter),
  });
}
