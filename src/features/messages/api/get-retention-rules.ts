// Reads the owner's retention rules (RLS: only their own forms'), so the inbox can say which forms
// delete their messages. Keyed under the retention root (config/query-keys.ts), which the form
// settings refresh on a save.
import { useQuery } from '@tanstack/react-query';
import { retentionRootKey } from '../../../config/query-keys';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';

export type RetentionRule = Pick<Tables<'form_retention'>, 'form_id' | 'mode' | 'days'>;

const retentionRulesKey = [...retentionRootKey, 'rules'] as const;

async function getRetentionRules(): Promise<RetentionRule[]> {
  const { data, error } = await supabase.from('form_retention').select('form_id, mode, days');
  if (error) throw error;
  return data ?? [];
}

export function useRetentionRules() {
  return useQuery({ queryKey: retentionRulesKey, queryFn: getRetentionRules });
}
