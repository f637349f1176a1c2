// Creates a form. Its id is a UUID made in the browser (spec §3), so the embed code can be shown
// the moment the row is stored; the owner is the signed-in user (column default auth.uid(), RLS).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { formDetailsSchema, type FormDetails } from '../form-schema';
import { applyFormChange, savedForm } from '../forms-cache';
import { FORM_COLUMNS, formsKeys, type Form } from './get-forms';

export const createFormSchema = formDetailsSchema;
export type CreateFormInput = FormDetails;

export async function createForm(input: CreateFormInput): Promise<Form> {
  // Checked and cleaned again here: whatever calls this, only valid, trimmed values are sent.
  const values = createFormSchema.validateSync(input, { stripUnknown: true });
  const { data, error } = await supabase
    .from('forms')
    .insert({ id: crypto.randomUUID(), ...values })
    .select(FORM_COLUMNS)
    .single();
  if (error) throw error;
  return data as Form;
}

export function useCreateForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createForm,
    // Shown at once; Realtime reports the same row, which merges as a no-op.
    onSuccess: (form) => applyFormChange(client, savedForm(form)),
    onSettled: () => client.invalidateQueries({ queryKey: formsKeys.list() }),
  });
}
