// Reads the webhooks of one of the owner's forms (RLS: only their own), oldest first. The secret
// is the owner's to see: receivers verify the signature header with it. A webhook that failed too
// often in a row was turned off by tinyback: `disabled_reason` says so, `disabled_at` since when.
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';

export type { WebhookFormat } from '../../../lib/database';

/**
 * A webhook as its settings show it. `consecutive_failures`: failed attempts in a row (at 50
 * tinyback turns it off, `disabled_at` since when).
 */
export type Webhook = Pick<
  Tables<'webhooks'>,
  | 'id'
  | 'form_id'
  | 'url'
  | 'format'
  | 'send_spam'
  | 'enabled'
  | 'secret'
  | 'created_at'
  | 'consecutive_failures'
  | 'disabled_at'
  | 'disabled_reason'
>;

export const WEBHOOK_COLUMNS =
  'id, form_id, url, format, send_spam, enabled, secret, created_at, consecutive_failures, disabled_at, disabled_reason';

export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: (formId: string) => ['webhooks', 'list', formId] as const,
  deliveries: (webhookId: string) => ['webhooks', 'deliveries', webhookId] as const,
};

const getWebhooksSchema = yup.object({ formId: yup.string().uuid().required() });

async function getWebhooks(input: { formId: string }): Promise<Webhook[]> {
  const { formId } = getWebhooksSchema.validateSync(input);
  const { data, error } = await supabase
    .from('webhooks')
    .select(WEBHOOK_COLUMNS)
    .eq('form_id', formId)
    .order('created_at', { ascending: true })
    .order('id', { ascending: true });
  if (error) throw error;
  return data ?? [];
}

export function useWebhooks(formId: string) {
  return useQuery({
    queryKey: webhooksKeys.list(formId),
    queryFn: () => getWebhooks({ formId }),
  });
}
