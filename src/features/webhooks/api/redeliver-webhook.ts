// "Send again": starts a new round of attempts for a sent or failed delivery (RPC, as the owner),
// then asks the forms function to send it now (`_webhook`).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { webhooksKeys } from './get-webhooks';
import { sendNow } from './send-webhook-now';

const redeliverWebhookSchema = yup.object({
  deliveryId: yup.string().uuid().required(),
  webhookId: yup.string().uuid().required(),
});
type RedeliverWebhookInput = yup.InferType<typeof redeliverWebhookSchema>;

async function redeliverWebhook(input: RedeliverWebhookInput): Promise<void> {
  const { deliveryId } = redeliverWebhookSchema.validateSync(input);
  const { error } = await supabase.rpc('redeliver_webhook', { p_delivery_id: deliveryId });
  if (error) throw error;
  await sendNow(deliveryId);
}

export function useRedeliverWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: redeliverWebhook,
    onSettled: (_data, _error, input) =>
      client.invalidateQueries({ queryKey: webhooksKeys.deliveries(input.webhookId) }),
  });
}
