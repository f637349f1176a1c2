// The e-mail outbox worker: claims due jobs under a lease (so racing workers never take the same
// job), sends each through the configured provider, and records sent, retry-with-backoff or failed.
import { DELIVERY } from '../_shared/limits.ts';
import { retryDelaySeconds } from './backoff.ts';
import type { DeliveryReport } from './handler.ts';
import type { Mailer } from './mailer.ts';

export interface ClaimedJob {
  id: string;
  /** Token of this claim; finishing with a stale token (lease expired, job re-claimed) is a no-op. */
  lease: string;
  /** Attempts so far, this one included (the claim counts it). */
  attempts: number;
  recipient: string;
  subject: string;
  reply_to: string | null;
  text_body: string;
  html_body: string;
}

export type Outcome =
  { sent: true } | { sent: false; error: string; retryInSeconds: number | null };

export interface DeliveryStore {
  /** Claims due jobs (or the one job `id` if it is due), leasing them for `leaseSeconds`. */
  claim(opts: { id?: string; limit: number; leaseSeconds: number }): Promise<ClaimedJob[]>;
  finish(job: ClaimedJob, outcome: Outcome): Promise<void>;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function deliverOne(
  job: ClaimedJob,
  store: DeliveryStore,
  mailer: Mailer,
  from: string,
): Promise<Outcome> {
  let outcome: Outcome;
  try {
    await withTimeout(
      mailer.send({
        id: job.id,
        from,
        to: job.recipient,
        subject: job.subject,
        replyTo: job.reply_to,
        text: job.text_body,
        html: job.html_body,
      }),
      DELIVERY.sendTimeoutMs,
      'sending',
    );
    outcome = { sent: true };
  } catch (err) {
    outcome = {
      sent: false,
      error: String((err as Error)?.message ?? err).slice(0, 500),
      retryInSeconds: retryDelaySeconds(job.attempts),
    };
  }
  await store.finish(job, outcome);
  return outcome;
}

/** Claims and sends jobs; `id` restricts the run to one job (the immediate send after a post). */
export async function runDeliveries(
  store: DeliveryStore,
  mailer: Mailer,
  from: string,
  opts: { id?: string; limit?: number } = {},
): Promise<DeliveryReport> {
  const jobs = await store.claim({
    id: opts.id,
    limit: opts.limit ?? DELIVERY.batchSize,
    leaseSeconds: DELIVERY.leaseSeconds,
  });
  const report: DeliveryReport = { claimed: jobs.length, sent: 0, retrying: 0, failed: 0 };
  // One at a time: SMTP servers and Resend both rate-limit, and a batch is small.
  for (const job of jobs) {
    const outcome = await deliverOne(job, store, mailer, from);
    if (outcome.sent) report.sent++;
    else if (outcome.retryInSeconds === null) report.failed++;
    else report.retrying++;
  }
  return report;
}
