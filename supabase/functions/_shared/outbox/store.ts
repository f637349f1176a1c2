// The outbox's storage over a client with supabase-js's `rpc` (each function's index.ts passes its
// direct database connection, _shared/database.ts): e-mail jobs are claimed and finished a batch per call, webhook deliveries claimed
// under a lease and recorded one attempt per call, and waiting target-address confirmations
// composed in one call. Each RPC is its own transaction.
import { CONFIRMATIONS, DELIVERY } from '../limits.ts';
import type { CampaignStore, ClaimedMessage } from './campaigns.ts';
import type { ClaimedJob, DeliveryStore } from './mail-delivery.ts';
import type { ClaimedWebhook, WebhookStore } from './webhook-delivery.ts';

/** supabase-js's `rpc`: what the stores call (the direct connection answers it the same way). */
export interface RpcClient {
  rpc(
    name: string,
    args: Record<string, unknown>,
  ): PromiseLike<{ data: unknown; error: { message: string } | null }>;
}

/**
 * Composes the confirmation e-mails of target addresses waiting for one (token, hash and queued
 * mail in one transaction, within the caps of CONFIRMATIONS); `linkPrefix` + token is the link.
 * Returns how many it queued.
 */
export async function composeTargetConfirmations(
  client: RpcClient,
  linkPrefix: string,
): Promise<number> {
  const { data, error } = await client.rpc('compose_target_confirmations', {
    p_link_prefix: linkPrefix,
    p_ttl_seconds: CONFIRMATIONS.linkValidHours * 3600,
    p_min_interval_seconds: CONFIRMATIONS.resendIntervalSeconds,
    p_per_account_per_day: CONFIRMATIONS.perAccountPerDay,
    p_per_recipient_per_day: CONFIRMATIONS.perRecipientPerDay,
    p_limit: CONFIRMATIONS.batchSize,
  });
  if (error) throw new Error(`compose_target_confirmations: ${error.message}`);
  return Number(data ?? 0);
}

export function createMailStore(client: RpcClient): DeliveryStore {
  return {
    async claim({ id, limit, leaseSeconds }) {
      const { data, error } = await client.rpc('claim_email_deliveries', {
        p_id: id ?? null,
        p_limit: limit,
        p_lease_seconds: leaseSeconds,
        p_max_attempts: DELIVERY.maxAttempts,
      });
      if (error) throw new Error(`claim_email_deliveries: ${error.message}`);
      // Rows as the function returns them: a booking's carry `calendar` and `calendar_method`.
      return ((data ?? []) as ClaimedJob[]).map((row) => ({
        ...row,
        calendar: row.calendar ?? null,
        calendar_method: row.calendar_method ?? null,
      }));
    },
    async finish(results) {
      const { error } = await client.rpc('finish_email_deliveries', {
        p_results: results.map(([job, outcome]) => ({
          id: job.id,
          lease: job.lease,
          sent: outcome.sent,
          error: outcome.sent ? null : outcome.error,
          retry_in_seconds: outcome.sent ? null : outcome.retryInSeconds,
        })),
      });
      if (error) throw new Error(`finish_email_deliveries: ${error.message}`);
    },
  };
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

/** Owners' campaigns: claim, begin and finish (campaigns.ts), one transaction each. */
export function createCampaignStore(client: RpcClient): CampaignStore {
  return {
    async claim(limits) {
      const { data, error } = await client.rpc('campaign_claim', {
        p_limit: limits.batchSize,
        p_lease_seconds: limits.leaseSeconds,
        p_per_account_per_second: limits.perAccountPerSecond,
        p_per_account_per_day: limits.perAccountPerDay,
        p_new_account_per_day: limits.newAccountPerDay,
        p_account_interval_ms: 1000,
      });
      if (error) throw new Error(`campaign_claim: ${error.message}`);
      return (data ?? []) as ClaimedMessage[];
    },
    async begin(lease, messages) {
      const { data, error } = await client.rpc('campaign_begin', {
        p_lease: lease,
        p_messages: messages.map((m) => ({
          campaign_id: m.campaign_id,
          subscriber_id: m.subscriber_id,
        })),
      });
      if (error) throw new Error(`campaign_begin: ${error.message}`);
      return (data ?? []) as Awaited<ReturnType<CampaignStore['begin']>>;
    },
    async finish(results) {
      const { data, error } = await client.rpc('campaign_finish', { p_results: results });
      if (error) throw new Error(`campaign_finish: ${error.message}`);
      return Number(data ?? 0);
    },
  };
}
