// Reads the webhooks of one of the owner's forms (RLS: only their own), oldest first. The secret
// is the owner's to see: receivers verify the signature header with it.
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';

export type WebhookFormat = 'json' | 'slack' | 'discord';

export interface Webhook {
  id: string;
  form_id: string;
  url: string;
  format: WebhookFormat;
  send_spam: boolean;
  enabled: boolean;
  secret: string;
  created_at: string;
}

export const WEBHOOK_COLUMNS = 'id, form_id, url, format, send_spam, enabled, secret, created_at';

export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: (formId: string) => ['webhooks', 'list', formId] as const,
  deliveries: (webhookId: string) => ['webhooks', 'deliveries', webhookId] as const,
};

export const getWebhooksSchema = yup.object({ formId: yup.string().uuid().required() });

export async function getWebhooks(input: { formId: string }): Promise<Webhook[]> {
  const { formId } = getWebhooksSchema.validateSync(input);
  const { data, error } = await supabase
    .from('webhooks')
    .select(WEBHOOK_COLUMNS)
    .eq('form_id', formId)
    .order('created_at', { ascending: true })
    .order('id', { ascending: true });
  if (error) throw error;
  return (data ?? []) as Webhook[];
}

export function useWebhooks(formId: string) {
  return useQuery({
    queryKey: webhooksKeys.list(formId),
    queryFn: () => getWebhooks({ formId }),
  });
}
