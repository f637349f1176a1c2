// Changes a webhook's settings: on/off, format, spam. Its form, owner and secret never change.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { WEBHOOK_FORMATS } from './create-webhook';
import { WEBHOOK_COLUMNS, webhooksKeys, type Webhook } from './get-webhooks';

const updateWebhookSchema = yup.object({
  id: yup.string().uuid().required(),
  formId: yup.string().uuid().required(),
  changes: yup
    .object({
      enabled: yup.boolean(),
      send_spam: yup.boolean(),
      format: yup.string().oneOf(WEBHOOK_FORMATS),
    })
    .required(),
});
type UpdateWebhookInput = yup.InferType<typeof updateWebhookSchema>;

async function updateWebhook(input: UpdateWebhookInput): Promise<Webhook> {
  const { id, changes } = updateWebhookSchema.validateSync(input, { stripUnknown: true });
  const { data, error } = await supabase
    .from('webhooks')
    .update(changes)
    .eq('id', id)
    .select(WEBHOOK_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useUpdateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSettled: (_data, _error, input) =>
      client.invalidateQueries({ queryKey: webhooksKeys.list(input.formId) }),
  });
}
