// The webhook outbox worker, run by `_deliver` beside the e-mails and once right after a post:
// claims due deliveries under a lease, builds and signs each body, sends it (webhook-sender.ts)
// and records the attempt: sent, retry with backoff, or failed once the retry window is over.
import type { DeliveryReport } from './report.ts';
import type { SendResult } from './webhook-sender.ts';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signatureHeader,
  webhookBody,
  webhookRetryDelaySeconds,
  WEBHOOKS,
  type WebhookEntry,
  type WebhookEvent,
  type WebhookFormat,
} from './webhooks.ts';

export interface ClaimedWebhook {
  id: string;
  lease: string;
  /** Attempts of this round so far, this one included. */
  attempts: number;
  event: WebhookEvent;
  round_started_at: string;
  webhook_id: string;
  url: string;
  format: WebhookFormat;
  secret: string;
  form_id: string;
  form_name: string;
  entry: WebhookEntry | null;
  /** The database's half of the local-targets switch (webhook_settings.allow_local). */
  allow_local: boolean;
}

export interface WebhookAttempt {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
  /** Null with ok false: the delivery has failed for good. */
  retryInSeconds: number | null;
}

export interface WebhookStore {
  claim(opts: {
    id?: string;
    entryId?: string;
    limit: number;
    leaseSeconds: number;
  }): Promise<ClaimedWebhook[]>;
  finish(job: ClaimedWebhook, attempt: WebhookAttempt): Promise<void>;
}

export interface WebhookWorkerDeps {
  store: WebhookStore;
  send(
    url: string,
    body: string,
    headers: Record<string, string>,
    allowLocal: boolean,
  ): Promise<SendResult>;
  /** The function's half of the local-targets switch (WEBHOOKS_ALLOW_LOCAL=on). */
  allowLocal: boolean;
  now(): Date;
}

async function deliverOne(job: ClaimedWebhook, deps: WebhookWorkerDeps): Promise<WebhookAttempt> {
  const now = deps.now();
  const body = webhookBody(job.format, {
    event: job.event,
    deliveryId: job.id,
    form: { id: job.form_id, name: job.form_name },
    entry: job.entry,
    now,
  });
  const headers = {
    [SIGNATURE_HEADER]: await signatureHeader(job.secret, body, now),
    [EVENT_HEADER]: job.event,
    // The same id on every attempt: receivers drop repeats by it.
    [DELIVERY_HEADER]: job.id,
  };
  // Local targets only when both the function's environment and the database allow them.
  const result = await deps.send(job.url, body, headers, deps.allowLocal && job.allow_local);
  const attempt: WebhookAttempt = {
    ...result,
    // A test event is tried once: retrying it would only send the receiver more of the same.
    retryInSeconds:
      result.ok || job.event === 'test'
        ? null
        : webhookRetryDelaySeconds(job.attempts, new Date(job.round_started_at), deps.now()),
  };
  await deps.store.finish(job, attempt);
  return attempt;
}

/** Claims and sends due webhook deliveries (all, one id, or those of one entry). */
export async function runWebhookDeliveries(
  deps: WebhookWorkerDeps,
  opts: { id?: string; entryId?: string; limit?: number } = {},
): Promise<DeliveryReport> {
  const jobs = await deps.store.claim({
    id: opts.id,
    entryId: opts.entryId,
    limit: opts.limit ?? WEBHOOKS.batchSize,
    leaseSeconds: WEBHOOKS.leaseSeconds,
  });
  const report: DeliveryReport = { claimed: jobs.length, sent: 0, retrying: 0, failed: 0 };
  // In parallel: each receiver is a different server, and a slow one must not hold up the rest.
  const attempts = await Promise.all(jobs.map((job) => deliverOne(job, deps)));
  for (const a of attempts) {
    if (a.ok) report.sent++;
    else if (a.retryInSeconds === null) report.failed++;
    else report.retrying++;
  }
  return report;
}
