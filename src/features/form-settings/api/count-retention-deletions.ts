// How many of a form's stored messages a retention rule would delete, asked before it is saved: a
// head count (no rows read, RLS: the owner's own) of the form's entries — older than the number of
// days for "delete after", every one for "forward only" (each goes once it has been delivered). The
// sweep counts spam too, so this does.
import { useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { retentionKeys } from './get-retention';
import { RETENTION_DAYS } from './save-retention';

const DAY_MS = 24 * 60 * 60 * 1000;

const countRetentionDeletionsSchema = yup.object({
  formId: yup.string().uuid().required(),
  choice: yup
    .string()
    .oneOf(['days', 'forward_only'] as const)
    .required(),
  days: yup
    .number()
    .integer()
    .min(RETENTION_DAYS.min)
    .max(RETENTION_DAYS.max)
    .when('choice', { is: 'days', then: (s) => s.required() }),
});
export type CountRetentionDeletionsInput = yup.InferType<typeof countRetentionDeletionsSchema>;

/** The messages of the form the rule would delete; `now` is when the rule would start. */
async function countRetentionDeletions(
  input: CountRetentionDeletionsInput,
  now: Date = new Date(),
): Promise<number> {
  const { formId, choice, days } = countRetentionDeletionsSchema.validateSync(input);
  let query = supabase
    .from('entries')
    .select('id', { count: 'exact', head: true })
    .eq('form_id', formId);
  if (choice === 'days') {
    query = query.lt('created_at', new Date(now.getTime() - (days ?? 0) * DAY_MS).toISOString());
  }
  const { count, error } = await query;
  if (error) throw error;
  return count ?? 0;
}

/** Counts afresh at every call (never a cached number: messages arrive and leave all the time). */
export function useCountRetentionDeletions() {
  const client = useQueryClient();
  return (input: CountRetentionDeletionsInput) =>
    client.fetchQuery({
      queryKey: [...retentionKeys.all, 'deletions', input] as const,
      queryFn: () => countRetentionDeletions(input),
      staleTime: 0,
      gcTime: 0,
      retry: false,
    });
}
