// Webhooks through the real parts: a post to the forms function (gateway → Deno → Postgres) whose
// entry's insert queues the deliveries, the function's immediate attempt and its `_deliver` run,
// and a real HTTP receiver on 127.0.0.1. Retry timing is driven, not waited for: the test moves a
// waiting delivery's next attempt to now (as the clock would) and runs `_deliver` itself. The caps
// that keep webhooks from becoming a request cannon (ACCOUNT_CAPS in limits.ts) are driven the
// same way, each with an account of its own: counts the clock would have made are seeded in the
// action ledger, and aged instead of waited out.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_FACTS, WEBHOOK_VERIFY_NODE } from '../../src/features/docs/webhook-examples.ts';
import { ACCOUNT_CAPS } from '../../supabase/functions/_shared/limits.ts';
import { WEBHOOKS } from '../../supabase/functions/_shared/outbox/webhooks.ts';
import { superuserPool } from '../support/db.ts';
import { isTo, waitForMail } from '../support/mail.ts';
import { remote } from '../support/target.ts';
import { createForm, signUp, type TestUser } from '../support/supabase-users.ts';
import { ORIGIN, postFields, resetRateLimits, runDeliver, until } from './support.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let owner: TestUser;
/** Owners of the tests of the caps, one each, so no test spends another's allowance. */
const capOwners: TestUser[] = [];
let receiver: Receiver;
let snippetDir: string;
type Verify = (raw: Buffer | string, header: string, secret: string) => boolean;
let verify: Verify;

beforeAll(async () => {
  if (remote) return;
  pool = superuserPool(stack.dbUrl);
  receiver = await startReceiver();
  owner = await signUp('Hook Owner');
  // The docs' snippet, verbatim, as a reader would save and import it.
  snippetDir = await mkdtemp(path.join(tmpdir(), 'tinyback-verify-'));
  const file = path.join(snippetDir, 'verify.mjs');
  await writeFile(file, WEBHOOK_VERIFY_NODE);
  verify = ((await import(pathToFileURL(file).href)) as { verifyTinybackSignature: Verify })
    .verifyTinybackSignature;
});
afterAll(async () => {
  await receiver?.close();
  await pool?.query('delete from auth.users where id = any($1)', [
    [owner?.id, ...capOwners.map((u) => u.id)].filter(Boolean),
  ]);
  await pool?.end();
  if (snippetDir) await rm(snippetDir, { recursive: true, force: true });
});
beforeEach(async () => {
  if (!remote) await resetRateLimits(pool);
});

async function newForm(name: string): Promise<string> {
  return createForm(owner.client, name, { allowed_origin: ORIGIN });
}

/** A signed-in owner of their own, with one form the endpoint accepts posts for. */
async function capOwner(name: string): Promise<{ user: TestUser; formId: string }> {
  const user = await signUp(name);
  capOwners.push(user);
  return {
    user,
    formId: await createForm(user.client, `${name}'s form`, { allowed_origin: ORIGIN }),
  };
}

interface Hook {
  id: string;
  secret: string;
}
async function addWebhook(
  client: SupabaseClient,
  formId: string,
  fields: Record<string, unknown>,
): Promise<Hook> {
  const { data, error } = await client
    .from('webhooks')
    .insert({ form_id: formId, ...fields })
    .select('id, secret')
    .single();
  if (error) throw error;
  return data as Hook;
}

const post = (formId: string, fields: Record<string, string>) =>
  postFields(stack.apiUrl, formId, fields);

/** What the pg_cron job (or the local scheduler) does every minute. */
async function deliverDue(): Promise<void> {
  expect((await runDeliver(stack)).status).toBe(200);
}

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  /** Seconds until the next attempt. */
  wait: number;
}
async function deliveriesOf(webhookId: string): Promise<DeliveryRow[]> {
  const { rows } = await pool.query<DeliveryRow>(
    `select id, status, attempts,
            round(extract(epoch from next_attempt_at - now()))::int as wait
       from public.webhook_deliveries where webhook_id = $1 order by created_at`,
    [webhookId],
  );
  return rows;
}

/** The clock moves on: the waiting delivery is due now. */
async function makeDue(deliveryId: string): Promise<void> {
  await pool.query(
    `update public.webhook_deliveries set next_attempt_at = now() - interval '1 second'
      where id = $1 and status = 'pending'`,
    [deliveryId],
  );
}

// Local stack only: a deployment cannot reach this machine's receiver, and the tests switch the
// database's local-targets setting, which must never be touched on a deployment.
describe.skipIf(remote)('webhooks', () => {
  it('states in the docs the figures the function uses', () => {
    expect(WEBHOOK_FACTS).toMatchObject({
      firstRetrySeconds: WEBHOOKS.baseDelaySeconds,
      maxDelaySeconds: WEBHOOKS.maxDelaySeconds,
      retryWindowHours: WEBHOOKS.retryWindowSeconds / 3600,
      timeoutSeconds: WEBHOOKS.timeoutMs / 1000,
      maxResponseKiB: WEBHOOKS.maxResponseBytes / 1024,
      excerptChars: WEBHOOKS.excerptChars,
      toleranceSeconds: WEBHOOKS.toleranceSeconds,
    });
  });

  it('sends a signed JSON POST per accepted entry that the documented snippet verifies', async () => {
    const formId = await newForm('Signed');
    const hook = await addWebhook(owner.client, formId, { url: receiver.url('/signed') });
    // Generated by the database, shown to its owner.
    expect(hook.secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    const res = await post(formId, { name: 'Ada', email: 'ada@example.org', message: 'Hello' });
    expect(res.status).toBe(200);
    const entryId = (JSON.parse(res.body) as { id: string }).id;

    // The immediate attempt after the post: no scheduled run needed.
    const [got] = await until(
      'the delivery',
      async () => receiver.received('/signed'),
      (r) => r.length === 1,
    );
    const header = String(got!.headers['x-tinyback-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(got!.raw, header, hook.secret)).toBe(true);
    expect(verify(got!.raw, header, 'whsec_wrong')).toBe(false);
    expect(
      verify(Buffer.from(got!.raw.toString().replace('Ada', 'Eve')), header, hook.secret),
    ).toBe(false);

    const body = JSON.parse(got!.raw.toString()) as { delivery_id: string };
    expect(body).toMatchObject({
      event: 'entry.created',
      form: { id: formId, name: 'Signed' },
      entry: {
        id: entryId,
        name: 'Ada',
        email: 'ada@example.org',
        message: 'Hello',
        is_spam: false,
      },
    });
    expect(got!.headers['x-tinyback-event']).toBe('entry.created');
    expect(got!.headers['x-tinyback-delivery']).toBe(body.delivery_id);

    // The owner's log, read through RLS.
    const { data: attempts } = await owner.client
      .from('webhook_attempts')
      .select('status_code, ok, response_excerpt')
      .eq('webhook_id', hook.id);
    expect(attempts).toEqual([{ status_code: 200, ok: true, response_excerpt: 'thanks' }]);

    // "Send test event" and "Send again", as the dashboard calls them: an RPC queues the
    // delivery, then the function is asked to send it now (no scheduled run needed).
    const sendNow = (id: string) =>
      owner.client.functions.invoke('forms/_webhook', { body: { id } });
    const test = await owner.client.rpc('send_webhook_test', { p_webhook_id: hook.id });
    expect(test.error).toBeNull();
    expect((await sendNow(test.data as string)).error).toBeNull();
    expect(receiver.received('/signed')).toHaveLength(2);
    const again = await owner.client.rpc('redeliver_webhook', { p_delivery_id: body.delivery_id });
    expect(again.error).toBeNull();
    expect((await sendNow(body.delivery_id)).error).toBeNull();
    // Asking again sends nothing more: only a delivery never tried is sent this way.
    expect((await sendNow(body.delivery_id)).error).toBeNull();
    const all = receiver.received('/signed');
    const events = all.map(
      (h) => JSON.parse(h.raw.toString()) as { event: string; delivery_id: string },
    );
    expect(events.map((e) => e.event)).toEqual(['entry.created', 'test', 'entry.created']);
    expect(events.filter((e) => e.delivery_id === body.delivery_id)).toHaveLength(2);
    for (const h of all)
      expect(verify(h.raw, String(h.headers['x-tinyback-signature']), hook.secret)).toBe(true);
  });

  it('retries a receiver that fails 5 times: one success, 6 attempts logged, backoff doubling', async () => {
    const formId = await newForm('Flaky');
    receiver.script('/flaky', [500, 500, 503, 500, 502]);
    const hook = await addWebhook(owner.client, formId, { url: receiver.url('/flaky') });
    expect((await post(formId, { email: 'flaky@example.org', message: 'again' })).status).toBe(200);

    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const [row] = await until(
        `failed attempt ${attempt}`,
        () => deliveriesOf(hook.id),
        (rows) => rows[0]?.status === 'pending' && rows[0].attempts === attempt,
      );
      waits.push(row!.wait);
      await makeDue(row!.id);
      await deliverDue();
    }
    const [done] = await until(
      'the success',
      () => deliveriesOf(hook.id),
      (r) => r[0]?.status === 'sent',
    );
    expect(done!.attempts).toBe(6);

    // 30 s, then doubling (each measured a moment after it was set, so allow a second).
    expect(waits.map((w, i) => Math.abs(w - 30 * 2 ** i) <= 1)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);

    const hits = receiver.received('/flaky');
    expect(hits).toHaveLength(6);
    expect(hits.filter((h) => h.status === 200)).toHaveLength(1);
    // One delivery, the same id on every attempt (receivers may drop repeats by it).
    expect(new Set(hits.map((h) => h.headers['x-tinyback-delivery'])).size).toBe(1);

    const { rows: log } = await pool.query<{ status_code: number; ok: boolean; excerpt: string }>(
      `select status_code, ok, response_excerpt as excerpt from public.webhook_attempts
        where webhook_id = $1 order by id`,
      [hook.id],
    );
    expect(log.map((a) => a.status_code)).toEqual([500, 500, 503, 500, 502, 200]);
    expect(log.map((a) => a.ok)).toEqual([false, false, false, false, false, true]);
    expect(log[0]!.excerpt).toBe('receiver down (500)');
  });

  it('marks a delivery failed once its retries have gone on for 24 hours', async () => {
    const formId = await newForm('Down');
    receiver.script('/down', Array(10).fill(500));
    const hook = await addWebhook(owner.client, formId, { url: receiver.url('/down') });
    expect((await post(formId, { email: 'down@example.org', message: 'x' })).status).toBe(200);
    const [row] = await until(
      'the first failure',
      () => deliveriesOf(hook.id),
      (r) => r[0]?.attempts === 1 && r[0].status === 'pending',
    );
    // A day has passed since the round began.
    await pool.query(
      `update public.webhook_deliveries set round_started_at = now() - interval '24 hours 1 minute' where id = $1`,
      [row!.id],
    );
    await makeDue(row!.id);
    await deliverDue();
    const [failed] = await until(
      'failed',
      () => deliveriesOf(hook.id),
      (r) => r[0]?.status === 'failed',
    );
    expect(failed!.attempts).toBe(2);
  });

  it('sends spam only to webhooks that ask for it', async () => {
    const formId = await newForm('Spammy');
    const quiet = await addWebhook(owner.client, formId, { url: receiver.url('/no-spam') });
    const loud = await addWebhook(owner.client, formId, {
      url: receiver.url('/with-spam'),
      send_spam: true,
    });
    // A filled honeypot: stored as spam.
    const res = await post(formId, { email: 'bot@example.org', message: 'buy', _gotcha: 'x' });
    expect(res.status).toBe(200);
    const [spam] = await until(
      'the spam delivery',
      async () => receiver.received('/with-spam'),
      (r) => r.length === 1,
    );
    expect(JSON.parse(spam!.raw.toString()).entry.is_spam).toBe(true);
    // Never queued for the other one, so there is nothing to wait for.
    expect(await deliveriesOf(quiet.id)).toEqual([]);
    expect(receiver.received('/no-spam')).toEqual([]);
    expect(await deliveriesOf(loud.id)).toHaveLength(1);
  });

  describe('caps that keep webhooks from becoming a request cannon', () => {
    const sendTest = (user: TestUser, webhookId: string) =>
      user.client.rpc('send_webhook_test', { p_webhook_id: webhookId });
    const sendNow = (user: TestUser, id: string) =>
      user.client.functions.invoke('forms/_webhook', { body: { id } });

    it(`allows ${ACCOUNT_CAPS.manualWebhookSendsPerMinute} test events a minute per account: deleting and re-creating the webhook wins none back`, async () => {
      const { user, formId } = await capOwner('Test Cannon');
      const first = await addWebhook(user.client, formId, { url: receiver.url('/cannon') });
      for (let i = 1; i <= ACCOUNT_CAPS.manualWebhookSendsPerMinute; i++)
        expect((await sendTest(user, first.id)).error, `test event ${i}`).toBeNull();

      const removed = await user.client.from('webhooks').delete().eq('id', first.id).select('id');
      expect(removed.data).toEqual([{ id: first.id }]);
      const second = await addWebhook(user.client, formId, { url: receiver.url('/cannon') });
      const refused = await sendTest(user, second.id);
      expect(refused.error).toMatchObject({ code: 'PT429', hint: 'webhook_rate_limited' });
      expect(await deliveriesOf(second.id)).toEqual([]);
    });

    it('counts "send again" against the same allowance as test events', async () => {
      const { user, formId } = await capOwner('Resender');
      const hook = await addWebhook(user.client, formId, { url: receiver.url('/resend') });
      const test = await sendTest(user, hook.id);
      expect(test.error).toBeNull();
      const deliveryId = test.data as string;
      // Sent as the dashboard sends it, then sent again: one manual send each time.
      for (let i = 1; i <= ACCOUNT_CAPS.manualWebhookSendsPerMinute; i++) {
        if (i > 1) {
          const again = await user.client.rpc('redeliver_webhook', { p_delivery_id: deliveryId });
          expect(again.error, `send again ${i - 1}`).toBeNull();
        }
        expect((await sendNow(user, deliveryId)).error).toBeNull();
        await until(
          `send ${i}`,
          () => deliveriesOf(hook.id),
          (rows) => rows[0]?.status === 'sent',
        );
      }
      expect(receiver.received('/resend')).toHaveLength(ACCOUNT_CAPS.manualWebhookSendsPerMinute);

      const again = await user.client.rpc('redeliver_webhook', { p_delivery_id: deliveryId });
      expect(again.error).toMatchObject({ code: 'PT429', hint: 'webhook_rate_limited' });
      expect((await sendTest(user, hook.id)).error).toMatchObject({
        code: 'PT429',
        hint: 'webhook_rate_limited',
      });
      expect(await deliveriesOf(hook.id)).toEqual([expect.objectContaining({ status: 'sent' })]);
    });

    it('tries a test event once: a failing receiver gets no retries of it', async () => {
      const { user, formId } = await capOwner('Test Once');
      receiver.script('/test-once', [500, 500, 500]);
      const hook = await addWebhook(user.client, formId, { url: receiver.url('/test-once') });
      const test = await sendTest(user, hook.id);
      expect(test.error).toBeNull();

      await deliverDue();
      const [row] = await until(
        'the attempt',
        () => deliveriesOf(hook.id),
        (rows) => rows[0]?.attempts === 1 && rows[0].status !== 'sending',
      );
      expect(row).toMatchObject({ id: test.data as string, status: 'failed', attempts: 1 });
      // Not even once a retry would have been due.
      await pool.query(
        `update public.webhook_deliveries set next_attempt_at = now() - interval '1 hour'
          where id = $1`,
        [row!.id],
      );
      await deliverDue();
      expect(await deliveriesOf(hook.id)).toEqual([
        expect.objectContaining({ status: 'failed', attempts: 1 }),
      ]);
      expect(receiver.received('/test-once').map((h) => h.status)).toEqual([500]);
    });

    it(`holds a delivery while the account has made ${ACCOUNT_CAPS.webhookAttemptsPerHostPerMinute} attempts to its host this minute, and sends it once a slot frees up`, async () => {
      const { user, formId } = await capOwner('Busy Host');
      const url = receiver.url('/busy-host');
      const hook = await addWebhook(user.client, formId, { url });
      // The minute's attempts to this host, 40 seconds ago (recorded as the worker records them).
      const { rows: seeded } = await pool.query<{ target: string }>(
        `insert into private.action_ledger (kind, user_id, target, created_at)
         select 'webhook_attempt', $1, private.url_host($2), now() - interval '40 seconds'
           from generate_series(1, $3)
         returning target`,
        [user.id, url, ACCOUNT_CAPS.webhookAttemptsPerHostPerMinute],
      );
      expect(seeded[0]!.target).toBe('127.0.0.1');
      const attemptsToHost = async () => {
        const { rows } = await pool.query<{ n: number }>(
          `select count(*)::int as n from private.action_ledger
            where kind = 'webhook_attempt' and user_id = $1 and created_at > now() - interval '1 minute'`,
          [user.id],
        );
        return rows[0]!.n;
      };

      expect((await post(formId, { email: 'held@example.org', message: 'wait' })).status).toBe(200);
      await deliverDue();
      // Not leased, not tried: its next attempt moved to when the oldest of them leaves the minute.
      const [held] = await until(
        'the delivery held back',
        () => deliveriesOf(hook.id),
        (rows) => rows[0] !== undefined && rows[0].wait > 5,
      );
      expect(held).toMatchObject({ status: 'pending', attempts: 0 });
      const { rows: gap } = await pool.query<{ seconds: number }>(
        `select extract(epoch from d.next_attempt_at - (
                  select min(l.created_at) from private.action_ledger l
                   where l.kind = 'webhook_attempt' and l.user_id = $2))::float8 as seconds
           from public.webhook_deliveries d where d.id = $1`,
        [held!.id, user.id],
      );
      expect(gap[0]!.seconds).toBe(60);
      expect(receiver.received('/busy-host')).toEqual([]);
      expect(await attemptsToHost()).toBe(ACCOUNT_CAPS.webhookAttemptsPerHostPerMinute);

      // The minute has passed for those attempts.
      await pool.query(
        `update private.action_ledger set created_at = created_at - interval '1 minute'
          where kind = 'webhook_attempt' and user_id = $1`,
        [user.id],
      );
      await makeDue(held!.id);
      await deliverDue();
      const [sent] = await until(
        'the delivery sent',
        () => deliveriesOf(hook.id),
        (rows) => rows[0]?.status === 'sent',
      );
      expect(sent!.attempts).toBe(1);
      expect(receiver.received('/busy-host')).toHaveLength(1);
      expect(await attemptsToHost()).toBe(1);
    });

    it(`turns a webhook off after ${ACCOUNT_CAPS.webhookFailuresBeforeOff} failed attempts in a row, fails what waits, tells its owner, and counts again from 0 once turned on`, async () => {
      const { user, formId } = await capOwner('Failing Hooks');
      receiver.script('/failing', [500, 500, 500]);
      const hook = await addWebhook(user.client, formId, { url: receiver.url('/failing') });
      await pool.query('update public.webhooks set consecutive_failures = $2 where id = $1', [
        hook.id,
        ACCOUNT_CAPS.webhookFailuresBeforeOff - 1,
      ]);
      // An earlier entry's delivery, waiting for its next retry.
      const db = await pool.connect();
      let waitingId: string;
      try {
        await db.query('begin');
        await db.query('set local role service_role');
        const { rows } = await db.query<{ id: string }>(
          `with entry as (
             insert into public.entries (form_id, name, email, message)
             values ($1, 'Earlier', 'earlier@example.org', 'x') returning id)
           select id from entry`,
          [formId],
        );
        const { rows: waiting } = await db.query<{ id: string }>(
          `update public.webhook_deliveries set attempts = 3, next_attempt_at = now() + interval '1 hour'
            where entry_id = $1 returning id`,
          [rows[0]!.id],
        );
        await db.query('commit');
        waitingId = waiting[0]!.id;
      } catch (err) {
        await db.query('rollback');
        throw err;
      } finally {
        db.release();
      }

      // One more failure: the last one in a row it may have.
      expect((await post(formId, { email: 'last@example.org', message: 'x' })).status).toBe(200);
      await deliverDue();
      await until(
        'the webhook turned off',
        async () =>
          (await pool.query('select enabled from public.webhooks where id = $1', [hook.id])).rows,
        (rows) => rows[0]?.enabled === false,
      );

      const { data: seen } = await user.client
        .from('webhooks')
        .select('enabled, disabled_reason, disabled_at, consecutive_failures')
        .eq('id', hook.id)
        .single();
      expect(seen).toMatchObject({
        enabled: false,
        disabled_reason: 'failing',
        consecutive_failures: ACCOUNT_CAPS.webhookFailuresBeforeOff,
      });
      expect(seen!.disabled_at).not.toBeNull();
      const { rows: deliveries } = await pool.query<{
        id: string;
        status: string;
        attempts: number;
        last_error: string;
      }>(
        `select id, status, attempts, last_error from public.webhook_deliveries
          where webhook_id = $1 order by created_at`,
        [hook.id],
      );
      expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([
        ['failed', 3],
        ['failed', 1],
      ]);
      expect(deliveries[0]!.id).toBe(waitingId);
      expect(deliveries[0]!.last_error).toMatch(/turned off/);
      expect(receiver.received('/failing')).toHaveLength(1);

      // The owner is told at their account's address, by the next outbox run.
      await deliverDue();
      const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, user.email));
      expect(mail.subject).toMatch(/turned off/);
      expect(mail.subject).toContain("Failing Hooks's form");
      expect(mail.text).toContain(`failed ${ACCOUNT_CAPS.webhookFailuresBeforeOff} times in a row`);
      expect(mail.text).toContain('127.0.0.1');

      const { data: on, error } = await user.client
        .from('webhooks')
        .update({ enabled: true })
        .eq('id', hook.id)
        .select('enabled, disabled_reason, disabled_at, consecutive_failures')
        .single();
      expect(error).toBeNull();
      expect(on).toEqual({
        enabled: true,
        disabled_reason: null,
        disabled_at: null,
        consecutive_failures: 0,
      });
    });
  });

  describe('outside local development', () => {
    beforeAll(async () => {
      await pool.query('update private.webhook_settings set allow_local = false');
    });
    afterAll(async () => {
      await pool.query('update private.webhook_settings set allow_local = true');
    });

    it('refuses private, loopback, link-local and metadata targets at creation', async () => {
      const formId = await newForm('Guarded');
      for (const url of [
        receiver.url('/ssrf'),
        'https://127.0.0.1/hook',
        'https://[::1]/hook',
        'https://10.0.0.5/hook',
        'https://169.254.169.254/latest/meta-data/',
        'https://localhost/hook',
        'https://2130706433/hook',
        'http://hooks.example.com/plain-http',
      ]) {
        const { error } = await owner.client.from('webhooks').insert({ form_id: formId, url });
        expect(error?.code, url).toBe('23514');
      }
      const { count } = await owner.client
        .from('webhooks')
        .select('id', { count: 'exact', head: true })
        .eq('form_id', formId);
      expect(count).toBe(0);
    });

    it('reads a host as the sender does: every spelling of a loopback or malformed numeric address is refused, public hosts and IDNs are not', async () => {
      const formId = await newForm('Spelled');
      for (const url of [
        'https://0177.0.0.1/',
        'https://0x7f.1/',
        'https://[::127.0.0.1]/',
        'https://[::ffff:0:7f00:1]/',
        'https://①②⑦.0.0.1/',
        'https://１２７.0.0.1/',
        'https://127。0。0。1/',
        'https://1.2.3.08/',
      ]) {
        const { error } = await owner.client.from('webhooks').insert({ form_id: formId, url });
        expect(error, url).toMatchObject({ code: '23514', hint: 'webhook_url_refused' });
      }
      for (const url of [
        'https://hooks.example.com/in',
        'https://8.8.8.8/hook',
        'https://[2606:4700:4700::1111]/hook',
        'https://bücher.example/hook',
        'https://xn--bcher-kva.example/hook',
        'https://例え.jp/hook',
      ]) {
        const { error } = await owner.client
          .from('webhooks')
          .insert({ form_id: formId, url, enabled: false });
        expect(error, url).toBeNull();
      }
      await pool.query('delete from public.webhooks where form_id = $1', [formId]);
    });

    it('refuses them again at send time, without connecting', async () => {
      const formId = await newForm('Rebound');
      // Created while local targets were allowed; by the time it is sent, they are not.
      await pool.query('update private.webhook_settings set allow_local = true');
      const hook = await addWebhook(owner.client, formId, { url: receiver.url('/ssrf-later') });
      await pool.query('update private.webhook_settings set allow_local = false');

      expect((await post(formId, { email: 'x@example.org', message: 'x' })).status).toBe(200);
      const { rows } = await until(
        'the refused attempt',
        () =>
          pool.query<{ error: string; status_code: number | null }>(
            'select error, status_code from public.webhook_attempts where webhook_id = $1',
            [hook.id],
          ),
        (r) => r.rows.length === 1,
      );
      expect(rows[0]!.status_code).toBeNull();
      expect(rows[0]!.error).toMatch(/^Refused: /);
      expect(receiver.received('/ssrf-later')).toEqual([]);
    });
  });
});
