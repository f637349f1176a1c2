// "Send test event": queues a test delivery to one of the owner's webhooks (RPC, as the owner;
// test events and "Send again" together at most 10 a minute and 100 a day per account), then asks
// the forms function to send it now (`_webhook`). A test event is tried once, never retried.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { webhooksKeys } from './get-webhooks';
import { sendNow } from './send-webhook-now';

const sendWebhookTestSchema = yup.object({ webhookId: yup.string().uuid().required() });
type SendWebhookTestInput = yup.InferType<typeof sendWebhookTestSchema>;

async function sendWebhookTest(input: SendWebhookTestInput): Promise<string> {
  const { webhookId } = sendWebhookTestSchema.validateSync(input);
  const { data, error } = await supabase.rpc('send_webhook_test', { p_webhook_id: webhookId });
  if (error) throw error;
  const deliveryId = data as string;
  await sendNow(deliveryId);
  return deliveryId;
}

export function useSendWebhookTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendWebhookTest,
    onSettled: (_data, _error, input) =>
      client.invalidateQueries({ queryKey: webhooksKeys.deliveries(input.webhookId) }),
  });
}
