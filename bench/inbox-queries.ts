// The inbox's first-page and search queries as the Messages tab sends them (see
// src/features/messages/api/), for the benchmark to run through supabase-js in Node.
import type { SupabaseClient } from '@supabase/supabase-js';

export const INBOX_PAGE_SIZE = 50;

export function inboxPageQuery(client: SupabaseClient, filters: { search?: string }) {
  let query = client
    .from('entries')
    .select(
      'id, form_id, name, email, message, data, is_spam, read_at, created_at, form:forms(name), email_deliveries(status, attempts, last_error, next_attempt_at, sent_at)',
    )
    .eq('is_spam', false);
  if (filters.search) query = query.ilike('search_text', `%${filters.search.toLowerCase()}%`);
  return query
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(INBOX_PAGE_SIZE);
}
