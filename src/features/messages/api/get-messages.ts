// Reads one list of the inbox (a view, maybe one form, maybe a search), newest first, one keyset
// page at a time: each page asks for the rows strictly older than the last row of the previous
// one, so pages stay correct while new messages arrive.
import { useInfiniteQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { shareRows } from '../merge-messages';
import { toMessage } from '../message-fields';
import {
  MAX_SEARCH_LENGTH,
  PAGE_SIZE,
  cursorOf,
  isUuid,
  keysetFilter,
  messageColumnsFor,
  searchPattern,
} from '../message-query';
import type { Cursor, Message, MessageFilter, MessagePage } from '../types';
import { messagesKeys } from './query-keys';

const messageFilterSchema: yup.ObjectSchema<MessageFilter> = yup.object({
  formId: yup
    .string()
    .nullable()
    .defined()
    .test('uuid', 'Unknown form.', (value) => value === null || isUuid(value)),
  view: yup.mixed<MessageFilter['view']>().oneOf(['inbox', 'spam']).defined(),
  q: yup.string().max(MAX_SEARCH_LENGTH).defined(),
  files: yup.boolean().defined(),
});

/**
 * The REST query for `limit` rows of a list after `cursor`. Search is `search_text ilike` with a
 * trigram index behind it; "has files" an inner join on the files; the owner is not named: RLS
 * limits every read to the caller's rows.
 */
export function messagesQuery(
  filter: MessageFilter,
  cursor: Cursor | null,
  limit: number,
  signal?: AbortSignal,
) {
  const valid = messageFilterSchema.validateSync(filter);
  let query = supabase
    .from('entries')
    .select(messageColumnsFor(valid))
    .eq('is_spam', valid.view === 'spam');
  if (valid.formId) query = query.eq('form_id', valid.formId);
  if (valid.q.trim()) query = query.ilike('search_text', searchPattern(valid.q));
  if (cursor) query = query.or(keysetFilter(cursor));
  query = query
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(limit);
  return signal ? query.abortSignal(signal) : query;
}

/** Runs a list query and checks every row. */
export async function fetchMessages(query: ReturnType<typeof messagesQuery>): Promise<Message[]> {
  const { data, error } = await query;
  if (error) throw error;
  return ((data ?? []) as unknown[]).map(toMessage);
}

interface GetMessagesPageInput {
  filter: MessageFilter;
  cursor: Cursor | null;
  limit?: number;
  signal?: AbortSignal;
}

async function getMessagesPage({
  filter,
  cursor,
  limit = PAGE_SIZE,
  signal,
}: GetMessagesPageInput): Promise<MessagePage> {
  // One row more than shown tells whether another page exists, without a count.
  const rows = await fetchMessages(messagesQuery(filter, cursor, limit + 1, signal));
  const shown = rows.slice(0, limit);
  return { rows: shown, next: rows.length > limit ? cursorOf(shown[shown.length - 1]) : null };
}

export function useMessages(filter: MessageFilter) {
  return useInfiniteQuery({
    queryKey: messagesKeys.list(filter),
    queryFn: ({ pageParam, signal }) => getMessagesPage({ filter, cursor: pageParam, signal }),
    initialPageParam: null as Cursor | null,
    getNextPageParam: (lastPage) => lastPage.next ?? undefined,
    structuralSharing: shareRows,
  });
}
