// Message counts per form of the signed-in owner (RPC `form_message_counts()`): non-spam total,
// unread and spam. Forms without messages have no row; they count as zero.
import { useQuery } from '@tanstack/react-query';
import type { Functions } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import { formsKeys } from './get-forms';

export type FormCounts = Functions<'form_message_counts'>['Returns'][number];

type CountsByForm = Record<string, FormCounts>;

export const NO_MESSAGES = { total: 0, unread: 0, spam: 0 } as const;

async function getFormCounts(): Promise<FormCounts[]> {
  const { data, error } = await supabase.rpc('form_message_counts');
  if (error) throw error;
  return data ?? [];
}

function countsByForm(rows: FormCounts[]): CountsByForm {
  return Object.fromEntries(rows.map((row) => [row.form_id, row]));
}

export function useFormCounts() {
  return useQuery({ queryKey: formsKeys.counts(), queryFn: getFormCounts, select: countsByForm });
}
