// Saves a form's details and settings (name, target e-mail, origin, e-mail notifications,
// thank-you page). The id and owner never change.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { formSettingsSchema, type FormSettings } from '../form-schema';
import { applyFormChange, savedForm } from '../forms-cache';
import { FORM_COLUMNS, formsKeys, type Form } from './get-forms';
import { sendMailNow } from './send-mail-now';

const updateFormSchema = formSettingsSchema;
type UpdateFormInput = FormSettings & { id: string };

async function updateForm({ id, ...input }: UpdateFormInput): Promise<Form> {
  const values = updateFormSchema.validateSync(input, { stripUnknown: true });
  const { data, error } = await supabase
    .from('forms')
    .update(values)
    .eq('id', id)
    .select(FORM_COLUMNS)
    .single();
  if (error) throw error;
  return data as Form;
}

export function useUpdateForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateForm,
    onSuccess: (form) => {
      applyFormChange(client, savedForm(form));
      // A new target that needs confirming gets its link now (nothing is sent for an old one).
      if (!form.target_verified) void sendMailNow();
    },
    onSettled: () => client.invalidateQueries({ queryKey: formsKeys.list() }),
  });
}
