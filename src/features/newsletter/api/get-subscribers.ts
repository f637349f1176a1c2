// Reads every subscriber of one list, newest first, in chunks of the most the REST API answers per
// request, so the counts by status and the export are whole. Search and the status filter work on
// these rows in the browser, and Realtime keeps them current (live-bindings.ts).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Subscriber } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

const SUBSCRIBER_COLUMNS =
  'id, list_id, user_id, email, name, status, source, consent_at, consent_statement, created_at, confirmed_at, unsubscribed_at, bounced_at';
const READ_CHUNK_SIZE = 1000;

async function getSubscribers(listId: string, signal: AbortSignal): Promise<Subscriber[]> {
  const all: Subscriber[] = [];
  for (;;) {
    const { data, error } = await supabase
      .from('list_subscribers')
      .select(SUBSCRIBER_COLUMNS)
      .eq('list_id', listId)
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .range(all.length, all.length + READ_CHUNK_SIZE - 1)
      .abortSignal(signal);
    if (error) throw error;
    const rows = (data ?? []) as Subscriber[];
    all.push(...rows);
    if (rows.length < READ_CHUNK_SIZE) return all;
  }
}

export function useSubscribers(listId: string) {
  return useQuery({
    queryKey: newsletterKeys.subscribers(listId),
    queryFn: ({ signal }) => getSubscribers(listId, signal),
  });
}
