// Message counts for the view switch (Inbox / Spam), from the `form_message_counts()` function:
// one row per form of the caller with non-spam total, unread and spam counts.
import { useQuery } from '@tanstack/react-query';
import type { Functions } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import { messagesKeys } from './query-keys';

export type FormMessageCounts = Functions<'form_message_counts'>['Returns'][number];

export interface ViewCounts {
  inbox: number;
  unread: number;
  spam: number;
}

async function getMessageCounts(signal?: AbortSignal): Promise<FormMessageCounts[]> {
  let query = supabase.rpc('form_message_counts');
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw error;
  return (data ?? []).map((row) => ({
    form_id: String(row.form_id),
    total: Number(row.total) || 0,
    unread: Number(row.unread) || 0,
    spam: Number(row.spam) || 0,
  }));
}

/** The counts of one form, or of all forms when `formId` is null. */
function viewCounts(rows: readonly FormMessageCounts[], formId: string | null): ViewCounts {
  const counted = formId ? rows.filter((row) => row.form_id === formId) : rows;
  return counted.reduce(
    (sum, row) => ({
      inbox: sum.inbox + row.total,
      unread: sum.unread + row.unread,
      spam: sum.spam + row.spam,
    }),
    { inbox: 0, unread: 0, spam: 0 },
  );
}

export function useViewCounts(formId: string | null) {
  return useQuery({
    queryKey: messagesKeys.counts(),
    queryFn: ({ signal }) => getMessageCounts(signal),
    select: (rows) => viewCounts(rows, formId),
  });
}
