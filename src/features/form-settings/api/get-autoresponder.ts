// Reads the autoresponder of one of the owner's forms (RLS: only their own); null until the owner
// first saves one.
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';

/** `from_name`: the replies' sender name; null: "<form name> via tinyback". */
export type Autoresponder = Pick<
  Tables<'form_autoresponders'>,
  'form_id' | 'enabled' | 'subject' | 'body' | 'from_name' | 'updated_at'
>;

export const AUTORESPONDER_COLUMNS = 'form_id, enabled, subject, body, from_name, updated_at';

export const autoresponderKeys = {
  detail: (formId: string) => ['autoresponder', formId] as const,
};

const getAutoresponderSchema = yup.object({ formId: yup.string().uuid().required() });

async function getAutoresponder(input: { formId: string }): Promise<Autoresponder | null> {
  const { formId } = getAutoresponderSchema.validateSync(input);
  const { data, error } = await supabase
    .from('form_autoresponders')
    .select(AUTORESPONDER_COLUMNS)
    .eq('form_id', formId)
    .maybeSingle();
  if (error) throw error;
  return data;
}

export function useAutoresponder(formId: string) {
  return useQuery({
    queryKey: autoresponderKeys.detail(formId),
    queryFn: () => getAutoresponder({ formId }),
  });
}
