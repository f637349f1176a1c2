// Retention rules through the real parts: entries seeded with old dates and posts through the forms
// function, deliveries sent by its `_deliver` run (SMTP to the catcher, webhooks to a local
// receiver), and the sweep called as the local stack's scheduler calls it (POST
// /rest/v1/rpc/sweep_retention with the service key; pg_cron runs the same SQL function).
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { superuserPool } from '../support/db.ts';
import { localOnly } from '../support/target.ts';
import {
  postFields,
  rawRequest,
  resetRateLimits,
  runDeliver,
  seedForm,
  until,
  type SeededForm,
} from './support.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let receiver: Receiver;
const owners: string[] = [];

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await pool?.query('delete from auth.users where id = any($1)', [owners]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

async function newForm(name: string): Promise<SeededForm> {
  const form = await seedForm(pool, name);
  owners.push(form.userId);
  return form;
}

const sweep = (key: string) =>
  rawRequest(`${stack.apiUrl}/rest/v1/rpc/sweep_retention`, {
    headers: { authorization: `Bearer ${key}`, apikey: key, 'content-type': 'application/json' },
    body: '{}',
  });

async function runSweep(): Promise<void> {
  const res = await sweep(stack.serviceRoleKey);
  expect(res.status).toBe(200);
}

/** Entries stored `ageDays` ago (a little less for 0), messages named by their age. */
async function seedEntries(formId: string, ages: number[]): Promise<void> {
  for (const age of ages)
    await pool.query(
      `insert into public.entries (form_id, message, created_at)
       values ($1, $2, now() - make_interval(days => $3) + interval '1 hour')`,
      [formId, `${age} days old`, age],
    );
}

async function messagesOf(formId: string): Promise<string[]> {
  const { rows } = await pool.query<{ message: string }>(
    `select message from public.entries where form_id = $1 order by created_at`,
    [formId],
  );
  return rows.map((r) => r.message);
}

describe('retention', () => {
  it('removes exactly the entries older than the form’s number of days', async () => {
    const kept = await newForm('Keeps 30 days');
    const short = await newForm('Keeps 1 day');
    const forever = await newForm('No rule');
    await pool.query(
      `insert into public.form_retention (form_id, mode, days) values ($1, 'days', 30), ($2, 'days', 1)`,
      [kept.formId, short.formId],
    );
    // "+ 1 hour": 30 means just under 30 days old, inside a 30-day rule.
    for (const f of [kept, short, forever]) await seedEntries(f.formId, [400, 31, 30, 2, 1, 0]);

    await runSweep();

    expect(await messagesOf(kept.formId)).toEqual([
      '30 days old',
      '2 days old',
      '1 days old',
      '0 days old',
    ]);
    expect(await messagesOf(short.formId)).toEqual(['1 days old', '0 days old']);
    expect(await messagesOf(forever.formId)).toHaveLength(6);
  });

  it('is the service role’s to run', async () => {
    const res = await sweep(stack.anonKey);
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it('"forward only" keeps an entry while a delivery is retrying, and nothing once all are done', async (ctx) => {
    localOnly(ctx, 'its webhook receiver listens on this machine');
    const form = await newForm('Forward only');
    await pool.query(
      `insert into public.form_retention (form_id, mode) values ($1, 'forward_only')`,
      [form.formId],
    );
    await pool.query(
      `insert into public.form_autoresponders (form_id, enabled, body) values ($1, true, 'Thanks!')`,
      [form.formId],
    );
    const { rows: hooks } = await pool.query<{ id: string }>(
      `insert into public.webhooks (form_id, url) values ($1, $2) returning id`,
      [form.formId, receiver.url('/forward')],
    );
    // The receiver is down for the immediate attempt.
    receiver.script('/forward', [503]);

    const res = await postFields(stack.apiUrl, form.formId, {
      name: 'Ada',
      email: 'ada-forward@example.test',
      message: 'Hello',
    });
    expect(res.status).toBe(200);
    const entryId = (JSON.parse(res.body) as { id: string }).id;
    await until(
      'the failed first attempt',
      async () =>
        (
          await pool.query<{ status: string; attempts: number }>(
            `select status, attempts from public.webhook_deliveries where webhook_id = $1`,
            [hooks[0]!.id],
          )
        ).rows,
      (rows) => rows[0]?.status === 'pending' && rows[0].attempts === 1,
    );

    // A delivery is still to be retried: the entry stays.
    await runSweep();
    expect(await messagesOf(form.formId)).toEqual(['Hello']);

    // The retry is due (as the clock would make it) and the receiver is back.
    await pool.query(
      `update public.webhook_deliveries set next_attempt_at = now() where webhook_id = $1`,
      [hooks[0]!.id],
    );
    expect((await runDeliver(stack)).status).toBe(200);
    await until(
      'every delivery finished',
      async () =>
        (
          await pool.query<{ open: number }>(
            `select (select count(*) from public.webhook_deliveries
                      where entry_id = $1 and status in ('pending', 'sending'))
                  + (select count(*) from public.email_deliveries
                      where (entry_id = $1 or recipient = 'ada-forward@example.test')
                        and status in ('pending', 'sending')) as open`,
            [entryId],
          )
        ).rows[0]!.open,
      (open) => Number(open) === 0,
    );
    expect(receiver.received('/forward').map((h) => h.status)).toEqual([503, 200]);

    await runSweep();
    const { rows } = await pool.query<Record<string, number>>(
      `select (select count(*)::int from public.entries where form_id = $1) as entries,
              (select count(*)::int from public.webhook_deliveries where webhook_id = $2) as hooks,
              (select count(*)::int from public.email_deliveries
                where entry_id = $3 or recipient = 'ada-forward@example.test') as mails`,
      [form.formId, hooks[0]!.id, entryId],
    );
    expect(rows[0]).toEqual({ entries: 0, hooks: 0, mails: 0 });
  });
});
