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
  type WebhookFile,
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
  /** As claimed: its files carry their object keys, signed into URLs when the body is built. */
  entry: ClaimedEntry | null;
  /** The database's half of the local-targets switch (webhook_settings.allow_local). */
  allow_local: boolean;
}

/** A file as claim_webhook_deliveries() gives it: its object's key, not yet a URL. */
interface ClaimedFile {
  name: string;
  size: number;
  kind: string;
  mime_type: string;
  object_key: string;
}

type ClaimedEntry = Omit<WebhookEntry, 'files'> & { files?: ClaimedFile[] };

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
  /** A signed download URL of a stored file for `seconds`; absent: files carry no URL. */
  signFile?(objectKey: string, seconds: number): Promise<string>;
  now(): Date;
}

/** The entry's files with URLs signed for this attempt (a failed signature leaves the URL null). */
async function signedEntry(
  entry: ClaimedEntry | null,
  deps: WebhookWorkerDeps,
  now: Date,
): Promise<WebhookEntry | null> {
  if (!entry) return null;
  const { files, ...rest } = entry;
  if (!files?.length) return { ...rest, files: [] };
  const seconds = WEBHOOKS.fileUrlSeconds;
  const expires = new Date(now.getTime() + seconds * 1000).toISOString();
  const signed = await Promise.all(
    files.map(async ({ object_key: key, ...file }): Promise<WebhookFile> => {
      const url = deps.signFile ? await deps.signFile(key, seconds).catch(() => null) : null;
      return { ...file, url, expires_at: url ? expires : null };
    }),
  );
  return { ...rest, files: signed };
}

async function deliverOne(job: ClaimedWebhook, deps: WebhookWorkerDeps): Promise<WebhookAttempt> {
  const now = deps.now();
  const body = webhookBody(job.format, {
    event: job.event,
    deliveryId: job.id,
    form: { id: job.form_id, name: job.form_name },
    entry: await signedEntry(job.entry, deps, now),
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
