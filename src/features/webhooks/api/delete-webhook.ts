// Removes a webhook with its deliveries and their log (foreign keys cascade).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { webhooksKeys } from './get-webhooks';

const deleteWebhookSchema = yup.object({
  id: yup.string().uuid().required(),
  formId: yup.string().uuid().required(),
});
type DeleteWebhookInput = yup.InferType<typeof deleteWebhookSchema>;

async function deleteWebhook(input: DeleteWebhookInput): Promise<void> {
  const { id } = deleteWebhookSchema.validateSync(input);
  const { data, error } = await supabase.from('webhooks').delete().eq('id', id).select('id');
  if (error) throw error;
  if (!data?.length) throw new Error('This webhook no longer exists.');
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSettled: (_data, _error, input) =>
      client.invalidateQueries({ queryKey: webhooksKeys.list(input.formId) }),
  });
}
