// The inbox's first-page and search queries as the Messages tab sends them (built from the same
// pure pieces as src/features/messages/api/get-messages.ts), run through supabase-js in Node.
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  MESSAGE_COLUMNS,
  PAGE_SIZE,
  searchPattern,
} from '../src/features/messages/message-query.ts';

export const INBOX_PAGE_SIZE = PAGE_SIZE;

export function inboxPageQuery(client: SupabaseClient, filters: { search?: string }) {
  let query = client.from('entries').select(MESSAGE_COLUMNS).eq('is_spam', false);
  if (filters.search) query = query.ilike('search_text', searchPattern(filters.search));
  return query
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(PAGE_SIZE);
}
