// Reads the retention rule of one of the owner's forms (RLS: only their own); null when the form
// keeps its messages until they are deleted.
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import { retentionRootKey } from '../../../config/query-keys';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';

export type RetentionRule = Pick<Tables<'form_retention'>, 'form_id' | 'mode' | 'days'>;

export const RETENTION_COLUMNS = 'form_id, mode, days';

/** Under the root the inbox reads every rule under (config/query-keys.ts): a save refreshes both. */
export const retentionKeys = {
  all: retentionRootKey,
  detail: (formId: string) => [...retentionRootKey, 'form', formId] as const,
};

const getRetentionSchema = yup.object({ formId: yup.string().uuid().required() });

async function getRetention(input: { formId: string }): Promise<RetentionRule | null> {
  const { formId } = getRetentionSchema.validateSync(input);
  const { data, error } = await supabase
    .from('form_retention')
    .select(RETENTION_COLUMNS)
    .eq('form_id', formId)
    .maybeSingle();
  if (error) throw error;
  return data;
}

export function useRetention(formId: string) {
  return useQuery({
    queryKey: retentionKeys.detail(formId),
    queryFn: () => getRetention({ formId }),
  });
}
