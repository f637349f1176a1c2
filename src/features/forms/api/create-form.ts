// Creates a form. Its id is a UUID made in the browser (spec §3), so the embed code can be shown
// the moment the row is stored; the owner is the signed-in user (column default auth.uid(), RLS).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { formDetailsSchema, type FormDetails } from '../form-schema';
import { applyFormChange, savedForm } from '../forms-cache';
import { FORM_COLUMNS, formsKeys, type Form } from './get-forms';
import { sendMailNow } from './send-mail-now';

const createFormSchema = formDetailsSchema;
type CreateFormInput = FormDetails;

async function createForm(input: CreateFormInput): Promise<Form> {
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
    // Shown at once; Realtime reports the same row, which merges as a no-op. An address that is
    // not the account's own gets its confirmation link now, not at the next scheduled mail run.
    onSuccess: (form) => {
      applyFormChange(client, savedForm(form));
      if (!form.target_verified) void sendMailNow();
    },
    // Not awaited: the dialog shows the outcome at once, and the list's refetch (which may itself
    // wait out the request timeout when the server is gone) follows in the background.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: formsKeys.list() });
    },
  });
}
