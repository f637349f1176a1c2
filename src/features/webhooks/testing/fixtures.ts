// Test data for the webhook settings, and the webhook tables and owner functions in the tests'
// database (src/components/testing/supabase-server.ts). Like the database's prepare_webhook(),
// switching a webhook on clears why tinyback turned it off and its count of failures.
import type { Webhook } from '../api/get-webhooks';
import type { WebhookAttempt, WebhookDelivery } from '../api/get-webhook-deliveries';
import { pgError, supabaseDb, type Row } from '../../../components/testing/supabase-server';

export const FORM_ID = '00000000-0000-4000-9000-00000000aaaa';
let sequence = 0;
const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

export function makeWebhook(overrides: Partial<Webhook> = {}): Webhook {
  sequence += 1;
  return {
    id: uuid(sequence),
    form_id: FORM_ID,
    url: `https://hooks.example.com/${sequence}`,
    format: 'json',
    send_spam: false,
    enabled: true,
    secret: `whsec_${'ab'.repeat(32)}`,
    created_at: new Date(Date.UTC(2026, 10, 24, 10, sequence)).toISOString(),
    consecutive_failures: 0,
    disabled_at: null,
    disabled_reason: null,
    ...overrides,
  };
}

export function makeDelivery(
  webhookId: string,
  overrides: Partial<Omit<WebhookDelivery, 'log'>> = {},
): Omit<WebhookDelivery, 'log'> & { webhook_id: string } {
  sequence += 1;
  return {
    id: uuid(sequence),
    webhook_id: webhookId,
    event: 'entry.created',
    status: 'sent',
    attempts: 1,
    next_attempt_at: '2026-11-24T10:00:00Z',
    created_at: new Date(Date.UTC(2026, 10, 24, 11, sequence)).toISOString(),
    last_error: null,
    ...overrides,
  };
}

export function makeAttempt(
  deliveryId: string,
  overrides: Partial<WebhookAttempt> = {},
): WebhookAttempt {
  sequence += 1;
  return {
    id: sequence,
    delivery_id: deliveryId,
    attempted_at: '2026-11-24T11:00:00Z',
    status_code: 200,
    ok: true,
    error: null,
    response_excerpt: null,
    duration_ms: 12,
    ...overrides,
  };
}

/** Seeds the webhook tables, their owner functions and the forms function's `_webhook` route. */
export function seedWebhooks(
  initial: { webhooks?: Webhook[]; deliveries?: Row[]; attempts?: WebhookAttempt[] } = {},
) {
  supabaseDb.define('webhooks', {
    insert: (row) => ({ ...makeWebhook(), ...row }),
    update: (before, values) =>
      values.enabled === true && !before.enabled
        ? {
            ...before,
            ...values,
            consecutive_failures: 0,
            disabled_at: null,
            disabled_reason: null,
          }
        : { ...before, ...values },
  });
  supabaseDb.seed({
    webhooks: initial.webhooks ?? [],
    webhook_deliveries: initial.deliveries ?? [],
    webhook_attempts: initial.attempts ?? [],
  });
  supabaseDb.rpc('send_webhook_test', (args) => {
    const delivery = makeDelivery(String(args.p_webhook_id), {
      event: 'test',
      status: 'pending',
      attempts: 0,
    });
    supabaseDb.rows('webhook_deliveries').push(delivery);
    return delivery.id;
  });
  supabaseDb.rpc('redeliver_webhook', (args) => {
    const delivery = supabaseDb.rows('webhook_deliveries').find((d) => d.id === args.p_delivery_id);
    if (!delivery) throw pgError('PT404', 'This delivery no longer exists.');
    Object.assign(delivery, { status: 'pending', attempts: 0 });
    return args.p_delivery_id;
  });
  supabaseDb.edgeFunction('forms', () => ({ ok: true }));
}
