// The webhook outbox's storage through supabase-js with the service role (the client comes from
// index.ts): one RPC to claim due deliveries under a lease, one to record each attempt.
import type { ClaimedWebhook, WebhookStore } from './webhook-delivery.ts';

/** The one supabase-js method used here (index.ts passes its service-role client). */
export interface RpcClient {
  rpc(
    name: string,
    args: Record<string, unknown>,
  ): PromiseLike<{ data: unknown; error: { message: string } | null }>;
}

export function createWebhookStore(client: RpcClient): WebhookStore {
  return {
    async claim({ id, entryId, limit, leaseSeconds }) {
      const { data, error } = await client.rpc('claim_webhook_deliveries', {
        p_id: id ?? null,
        p_entry_id: entryId ?? null,
        p_limit: limit,
        p_lease_seconds: leaseSeconds,
      });
      if (error) throw new Error(`claim_webhook_deliveries: ${error.message}`);
      return (data ?? []) as ClaimedWebhook[];
    },
    async finish(job, attempt) {
      const { error } = await client.rpc('finish_webhook_delivery', {
        p_id: job.id,
        p_lease: job.lease,
        p_ok: attempt.ok,
        p_status_code: attempt.statusCode,
        p_error: attempt.error,
        p_response_excerpt: attempt.excerpt,
        p_duration_ms: attempt.durationMs,
        p_retry_in_seconds: attempt.retryInSeconds,
      });
      if (error) throw new Error(`finish_webhook_delivery: ${error.message}`);
    },
  };
}

/** WEBHOOKS_ALLOW_LOCAL=on (local development and tests only); anything else keeps them refused. */
export function allowLocalFromEnv(env: (name: string) => string | undefined): boolean {
  return env('WEBHOOKS_ALLOW_LOCAL') === 'on';
}
