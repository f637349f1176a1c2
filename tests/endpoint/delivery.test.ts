// The e-mail outbox on a stack of its own (so its mail catcher can be stopped): posts made while
// SMTP is down are stored and queued, retried once it is back, and every entry is e-mailed exactly
// once, even with several workers racing over the same jobs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELIVERY, LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import { isTo, listMail } from '../support/mail.ts';
import { localOnly, remote } from '../support/target.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  seedForm,
  until,
  type SeededForm,
} from './support.ts';

let stack: RunningStack;
let dataDir: string;

beforeAll(async () => {
  // Under `npm run verify` there is no stack of our own to stop parts of (see beforeEach).
  if (remote) return;
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-delivery-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  stack = await startStack({
    dataDir,
    ports: { api, db, mailWeb, smtp },
    seed: false,
    // The stand-in for pg_cron: a worker run every 300 ms.
    deliveryIntervalMs: 300,
    log: (service, message) => {
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});
beforeEach(async (ctx) => {
  localOnly(ctx, 'it stops and restarts the mail server of a stack of its own');
  await resetRateLimits(stack.pool);
});

interface DeliveryRow {
  entry_id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  retry_later: boolean;
}
async function deliveries(formId: string): Promise<DeliveryRow[]> {
  const { rows } = await stack.pool.query<DeliveryRow>(
    `select d.entry_id, d.status, d.attempts, d.last_error, d.next_attempt_at > now() + interval '10 seconds' as retry_later
       from public.email_deliveries d join public.entries e on e.id = d.entry_id
      where e.form_id = $1 order by e.created_at`,
    [formId],
  );
  return rows;
}

/** The immediate attempt has failed and the job waits for its retry (not merely not yet tried). */
const failedOnce = (r: DeliveryRow) =>
  r.status === 'pending' && r.attempts === 1 && r.last_error !== null;

async function postEntries(form: SeededForm, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await rawRequest(functionUrl(stack.settings.apiUrl, form.formId), {
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        name: `Sender ${i}`,
        email: `sender${i}@example.org`,
        message: `message number ${i}`,
      }).toString(),
    });
    // Stored and answered as a success although no e-mail can go out right now.
    expect(res.status).toBe(303);
  }
}

/** Every entry's id appears in exactly one message to the form's inbox, and nothing else arrived. */
async function expectEachMailedOnce(form: SeededForm) {
  const { rows } = await stack.pool.query<{ id: string }>(
    'select id from public.entries where form_id = $1',
    [form.formId],
  );
  const inbox = (await listMail(stack.settings.mailWebUrl)).filter((m) =>
    isTo(m, form.targetEmail),
  );
  expect(inbox).toHaveLength(rows.length);
  for (const { id } of rows)
    expect(
      inbox.filter((m) => m.text?.includes(id)),
      id,
    ).toHaveLength(1);
}

const deliverNow = () =>
  fetch(`${stack.settings.apiUrl}/functions/v1/forms/_deliver`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.settings.serviceRoleKey}` },
  }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { claimed: number; sent: number },
  }));

/** Brings the queued jobs' retry time forward, as if the backoff had elapsed. */
const makeDue = (formId: string) =>
  stack.pool.query(
    `update public.email_deliveries d set next_attempt_at = now()
       from public.entries e where e.id = d.entry_id and e.form_id = $1 and d.status = 'pending'`,
    [formId],
  );

describe('e-mail outbox', () => {
  it('queues posts while the mail server is down and e-mails each exactly once when it is back', async () => {
    const form = await seedForm(stack.pool);
    await stack.mail.stop();
    await postEntries(form, LIMITS.ratePerMinute);

    const queued = await until(
      'failed first attempts',
      () => deliveries(form.formId),
      (rows) => rows.length === LIMITS.ratePerMinute && rows.every(failedOnce),
    );
    for (const row of queued) {
      expect(row.last_error).toBeTruthy();
      expect(row.retry_later).toBe(true); // backed off, not retried in a tight loop
    }

    await stack.mail.start();
    await makeDue(form.formId);
    await until(
      'all sent',
      () => deliveries(form.formId),
      (rows) => rows.every((r) => r.status === 'sent'),
    );
    // Nothing is left for another worker run to send twice.
    const again = await deliverNow();
    expect(again.status).toBe(200);
    expect(again.body.claimed).toBe(0);
    await expectEachMailedOnce(form);
  });

  it('sends each e-mail once when several workers race over the same due jobs', async () => {
    const form = await seedForm(stack.pool);
    await stack.mail.stop();
    await postEntries(form, LIMITS.ratePerMinute);
    await until(
      'queued',
      () => deliveries(form.formId),
      (rows) => rows.length === LIMITS.ratePerMinute && rows.every(failedOnce),
    );
    await stack.mail.start();

    await makeDue(form.formId);
    // Six explicit workers at once, plus the scheduled one.
    const runs = await Promise.all(Array.from({ length: 6 }, () => deliverNow()));
    for (const run of runs) expect(run.status).toBe(200);
    const claimedByUs = runs.reduce((n, r) => n + r.body.claimed, 0);
    expect(claimedByUs).toBeLessThanOrEqual(LIMITS.ratePerMinute);

    await until(
      'all sent',
      () => deliveries(form.formId),
      (rows) => rows.every((r) => r.status === 'sent'),
    );
    await expectEachMailedOnce(form);
  });

  it('hands every due job to exactly one of many concurrent claimers', async () => {
    const form = await seedForm(stack.pool);
    const jobs = 24;
    for (let i = 0; i < jobs; i++) {
      await stack.pool.query(
        `select public.accept_submission(gen_random_uuid(), $1, $2, null, null, $3, '{}', false,
           '{"subject":"s","text":"t","html":"h"}', 1000, 1000)`,
        [form.formId, `client-${i}`, `message ${i}`],
      );
    }
    // Eight workers, each on its own connection as the service role, claiming small batches at once.
    const claimers = Array.from({ length: 8 }, async () => {
      const client = await stack.pool.connect();
      const ids: string[] = [];
      try {
        for (;;) {
          await client.query('begin');
          await client.query('set local role service_role');
          const { rows } = await client.query<{ id: string }>(
            `select c.id from public.claim_email_deliveries(null, 2, 60, $1) c
               join public.email_deliveries d on d.id = c.id join public.entries e on e.id = d.entry_id
              where e.form_id = $2`,
            [DELIVERY.maxAttempts, form.formId],
          );
          await client.query('commit');
          if (rows.length === 0) break;
          ids.push(...rows.map((r) => r.id));
        }
      } finally {
        client.release();
      }
      return ids;
    });
    const claimed = (await Promise.all(claimers)).flat();
    expect(new Set(claimed).size).toBe(claimed.length);
    // The scheduled worker is running too and may have taken some; either way every job was
    // claimed exactly once (a claim counts an attempt).
    expect(claimed.length).toBeGreaterThan(0);
    const rows = await deliveries(form.formId);
    expect(rows).toHaveLength(jobs);
    for (const row of rows) expect(row.attempts).toBe(1);
    // Leases held by these test claimers would expire into real sends later; drop the jobs.
    await stack.pool.query('delete from public.entries where form_id = $1', [form.formId]);
  });

  it('gives a job up after the last attempt', async () => {
    const form = await seedForm(stack.pool);
    await stack.mail.stop();
    try {
      await postEntries(form, 1);
      await until(
        'queued',
        () => deliveries(form.formId),
        (rows) => rows.length === 1 && failedOnce(rows[0]),
      );
      await stack.pool.query(
        `update public.email_deliveries d set attempts = $2, next_attempt_at = now()
           from public.entries e where e.id = d.entry_id and e.form_id = $1`,
        [form.formId, DELIVERY.maxAttempts - 1],
      );
      const [row] = await until(
        'given up',
        () => deliveries(form.formId),
        (rows) => rows[0].status !== 'pending' && rows[0].status !== 'sending',
      );
      expect(row).toMatchObject({
        status: 'failed',
        attempts: DELIVERY.maxAttempts,
        last_error: expect.any(String),
      });
    } finally {
      await stack.mail.start();
    }
    // Once given up, the job stays given up.
    expect((await deliverNow()).body.claimed).toBe(0);
  });
});
