// Reads the owner's retention rules (RLS: only their own forms'), so the inbox can say which forms
// delete their messages. Keyed under ['retention'], the root the form settings refresh on a save.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

export interface RetentionRule {
  form_id: string;
  mode: 'days' | 'forward_only';
  days: number | null;
}

export const retentionRulesKey = ['retention', 'rules'] as const;

export async function getRetentionRules(): Promise<RetentionRule[]> {
  const { data, error } = await supabase.from('form_retention').select('form_id, mode, days');
  if (error) throw error;
  return (data ?? []) as RetentionRule[];
}

export function useRetentionRules() {
  return useQuery({ queryKey: retentionRulesKey, queryFn: getRetentionRules });
}
