// The e-mail outbox worker: claims due jobs under a lease (so racing workers never take the same
// job), sends each through the configured provider, and records sent, retry-with-backoff or failed
// for the whole batch in one call. createSendSoon() runs it right after posts, one batch at a time.
import { DELIVERY } from '../limits.ts';
import { retryDelaySeconds } from './backoff.ts';
import type { DeliveryReport } from './report.ts';
import type { Mailer, MailCalendar } from './mailer.ts';

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
  /** The sender's display name (an autoresponse's); null or absent: MAIL_FROM as it is. */
  from_name?: string | null;
  /** A booking's invitation (.ics text); null or absent: a plain mail. */
  calendar?: string | null;
  /** Its iTIP method, set together with `calendar`: 'REQUEST' or 'CANCEL'. */
  calendar_method?: string | null;
}

/**
 * The invitation a job carries: both columns set and the method one the mailers know. A row with
 * only one of them (the database sets them together) goes out as a plain mail.
 */
export function calendarOf(
  job: Pick<ClaimedJob, 'calendar' | 'calendar_method'>,
): MailCalendar | null {
  const method = job.calendar_method?.trim().toUpperCase();
  if (!job.calendar || (method !== 'REQUEST' && method !== 'CANCEL')) return null;
  return { method, content: job.calendar };
}

export type Outcome =
  { sent: true } | { sent: false; error: string; retryInSeconds: number | null };

export interface DeliveryStore {
  /** Claims due jobs (or the one job `id` if it is due), leasing them for `leaseSeconds`. */
  claim(opts: { id?: string; limit: number; leaseSeconds: number }): Promise<ClaimedJob[]>;
  /** Records the outcomes of one batch (only those whose lease is still current count). */
  finish(results: [ClaimedJob, Outcome][]): Promise<void>;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function deliverOne(job: ClaimedJob, mailer: Mailer, from: string): Promise<Outcome> {
  try {
    await withTimeout(
      mailer.send({
        id: job.id,
        from,
        fromName: job.from_name ?? null,
        to: job.recipient,
        subject: job.subject,
        replyTo: job.reply_to,
        text: job.text_body,
        html: job.html_body,
        calendar: calendarOf(job),
      }),
      DELIVERY.sendTimeoutMs,
      'sending',
    );
    return { sent: true };
  } catch (err) {
    return {
      sent: false,
      error: String((err as Error)?.message ?? err).slice(0, 500),
      retryInSeconds: retryDelaySeconds(job.attempts),
    };
  }
}

/** Claims and sends jobs; `id` restricts the run to one job. */
export async function runDeliveries(
  store: DeliveryStore,
  mailer: Mailer,
  from: string,
  opts: { id?: string; limit?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<DeliveryReport> {
  const jobs = await store.claim({
    id: opts.id,
    limit: opts.limit ?? DELIVERY.batchSize,
    leaseSeconds: DELIVERY.leaseSeconds,
  });
  const report: DeliveryReport = { claimed: jobs.length, sent: 0, retrying: 0, failed: 0 };
  if (!jobs.length) return report;
  // As many at a time as the provider takes (Resend rate-limits: one; a pooled SMTP transport:
  // its connections), in claim order.
  const outcomes: Outcome[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      outcomes[i] = await deliverOne(jobs[i], mailer, from);
    }
  };
  const lanes = Math.max(1, Math.min(mailer.parallel ?? 1, jobs.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  for (const outcome of outcomes) {
    if (outcome.sent) report.sent++;
    else if (outcome.retryInSeconds === null) report.failed++;
    else report.retrying++;
  }
  // One call for the batch, tried again through a short outage (well within the lease): should it
  // still fail, the leases run out and the jobs are sent again, at least once, never lost.
  const results = jobs.map((job, i): [ClaimedJob, Outcome] => [job, outcomes[i]]);
  for (let attempt = 0; ; attempt++) {
    try {
      await store.finish(results);
      break;
    } catch (err) {
      if (attempt >= FINISH_RETRIES_MS.length) throw err;
      await (opts.sleep ?? sleep)(FINISH_RETRIES_MS[attempt]);
    }
  }
  return report;
}

/** Pauses before recording a batch again after a failure (about 15 s in all, lease: 120 s). */
export const FINISH_RETRIES_MS = [500, 1_000, 2_000, 4_000, 8_000];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Delivery right after posts, batched: `soon()` starts a run of due jobs unless one is running, in
 * which case that run goes round once more when it is done. Posts arriving together share one
 * claim, one connection to the provider and one finish, instead of a claim-send-finish each. The
 * promise settles when the work this call asked for is done (for EdgeRuntime.waitUntil); it never
 * rejects (`log` hears why a run failed; the jobs stay queued for the scheduled run).
 */
export function createSendSoon(
  run: () => Promise<DeliveryReport>,
  log: (message: string) => void,
  batchSize: number = DELIVERY.batchSize,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const loop = async () => {
    for (;;) {
      again = false;
      try {
        // A full batch may have left due jobs behind: go round again.
        if ((await Promise.resolve().then(run)).claimed >= batchSize) again = true;
      } catch (err) {
        log(`sending e-mail failed: ${(err as Error).message}`);
      }
      // Checked and cleared in one step: a call either lands before (one more round) or after
      // (a new run), never in between.
      if (!again) {
        running = null;
        return;
      }
    }
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = loop();
    return running;
  };
}
