// Reads a webhook's latest deliveries with every attempt of each (status code, time, the start of
// the answer): the owner's delivery log. Read afresh when opened, polled while it is open (more
// often while a delivery is on its way).
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import { webhooksKeys } from './get-webhooks';

/** Deliveries shown per webhook, newest first. */
const DELIVERIES_SHOWN = 10;
/** How often the log is read again while a delivery is queued or being retried. */
const DELIVERIES_POLL_MS = 5_000;
/** How often an open log is read again otherwise, so new messages' deliveries appear. */
const DELIVERIES_IDLE_POLL_MS = 30_000;

export type WebhookAttempt = Pick<
  Tables<'webhook_attempts'>,
  | 'id'
  | 'delivery_id'
  | 'attempted_at'
  | 'status_code'
  | 'ok'
  | 'error'
  | 'response_excerpt'
  | 'duration_ms'
>;

/**
 * A delivery with its attempts, oldest first. `last_error`: why the last try failed, or why it was
 * never tried (its webhook was turned off).
 */
export type WebhookDelivery = Pick<
  Tables<'webhook_deliveries'>,
  'id' | 'event' | 'status' | 'attempts' | 'next_attempt_at' | 'created_at' | 'last_error'
> & { log: WebhookAttempt[] };

const getWebhookDeliveriesSchema = yup.object({ webhookId: yup.string().uuid().required() });

async function getWebhookDeliveries(input: { webhookId: string }): Promise<WebhookDelivery[]> {
  const { webhookId } = getWebhookDeliveriesSchema.validateSync(input);
  const { data, error } = await supabase
    .from('webhook_deliveries')
    .select('id, event, status, attempts, next_attempt_at, created_at, last_error')
    .eq('webhook_id', webhookId)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(DELIVERIES_SHOWN);
  if (error) throw error;
  const deliveries = data ?? [];
  if (deliveries.length === 0) return [];
  const attempts = await supabase
    .from('webhook_attempts')
    .select('id, delivery_id, attempted_at, status_code, ok, error, response_excerpt, duration_ms')
    .in(
      'delivery_id',
      deliveries.map((d) => d.id),
    )
    .order('id', { ascending: true });
  if (attempts.error) throw attempts.error;
  const log = attempts.data ?? [];
  return deliveries.map((d) => ({ ...d, log: log.filter((a) => a.delivery_id === d.id) }));
}

export function useWebhookDeliveries(webhookId: string, enabled = true) {
  return useQuery({
    queryKey: webhooksKeys.deliveries(webhookId),
    queryFn: () => getWebhookDeliveries({ webhookId }),
    enabled,
    // Opening the log always shows it as it is now.
    refetchOnMount: 'always',
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending' || d.status === 'sending')
        ? DELIVERIES_POLL_MS
        : DELIVERIES_IDLE_POLL_MS,
  });
}
