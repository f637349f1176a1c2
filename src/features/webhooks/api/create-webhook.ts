// Adds a webhook to one of the owner's forms. The database draws its secret and refuses URLs a
// webhook may not reach (plain http, private, loopback and metadata addresses) with a message.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { WEBHOOK_COLUMNS, webhooksKeys, type Webhook } from './get-webhooks';

export const WEBHOOK_FORMATS = ['json', 'slack', 'discord'] as const;

export const webhookUrlSchema = yup
  .string()
  .trim()
  .required('Enter the URL to send new messages to.')
  .max(2000, 'The URL must be at most 2000 characters.')
  .test('absolute-url', 'Enter a full URL starting with https://.', (value) => {
    if (!value) return false;
    try {
      const url = new URL(value);
      // http:// is accepted by the database in local development only; it says so otherwise.
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  });

const createWebhookSchema = yup.object({
  formId: yup.string().uuid().required(),
  url: webhookUrlSchema,
  format: yup.string().oneOf(WEBHOOK_FORMATS).required(),
  send_spam: yup.boolean().required(),
});
type CreateWebhookInput = yup.InferType<typeof createWebhookSchema>;

async function createWebhook(input: CreateWebhookInput): Promise<Webhook> {
  const { formId, ...values } = createWebhookSchema.validateSync(input, { stripUnknown: true });
  const { data, error } = await supabase
    .from('webhooks')
    .insert({ form_id: formId, ...values })
    .select(WEBHOOK_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSettled: (_data, _error, input) =>
      client.invalidateQueries({ queryKey: webhooksKeys.list(input.formId) }),
  });
}
