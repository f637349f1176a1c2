// The monthly submissions quota through the real parts (gateway → Deno → Postgres → SMTP): a post
// over the owner's plan gets a clear answer and stores nothing; what was accepted before stays as
// it was; spam is stored uncounted; the owner is e-mailed once at 80 % and once at 100 %; racing
// posts never overshoot the quota; a plan change and an unlimited deployment take effect at once.
// Each owner is put on the plan under test (the test stack starts accounts unlimited).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../supabase/functions/forms/errors.ts';
import { SPECIAL_FIELDS } from '../../supabase/functions/_shared/limits.ts';
import { superuserPool } from '../support/db.ts';
import { isTo, listMail, waitForMail, type CaughtMail } from '../support/mail.ts';
import { monthUsage, setMonthUsage, setPlan } from '../support/plans.ts';
import { localOnly, needsMail, needsSiteUrl } from '../support/target.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  runDeliver,
  seedForm,
  storedFor,
  type SeededForm,
  urlencoded,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
const owners: string[] = [];

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [owners]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

/** An owner with one form (its target is the owner's own address) on `plan`. */
async function ownerOn(plan: string, name = 'Quota'): Promise<SeededForm> {
  const form = await seedForm(pool, name);
  owners.push(form.userId);
  await setPlan(pool, form.userId, plan);
  return form;
}

let visitor = 0;
/** A JSON-answered post from a visitor network of its own (127.0.9.x), so no rate limit binds. */
function post(
  formId: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  visitor++;
  return rawRequest(functionUrl(stack.apiUrl, formId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'application/json',
      ...headers,
    },
    body: urlencoded(fields),
    localAddress: `127.0.${9 + Math.floor(visitor / 250)}.${(visitor % 250) + 1}`,
  });
}

async function secondsUntilReset(): Promise<number> {
  const { rows } = await pool.query<{ s: number }>(
    'select extract(epoch from private.usage_resets_at() - now())::float8 as s',
  );
  return rows[0]!.s;
}

describe('the monthly submissions quota', () => {
  it('refuses a post over the quota with a clear answer and stores nothing', async () => {
    const form = await ownerOn('free');
    await setMonthUsage(pool, form.userId, 99);

    const last = await post(form.formId, { name: 'Ada', message: 'the 100th' });
    expect(last.status).toBe(200);
    const accepted = JSON.parse(last.body) as { ok: boolean; id: string };
    expect(accepted.ok).toBe(true);

    const over = await post(form.formId, { name: 'Bob', message: 'the 101st' });
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body)).toEqual({
      ok: false,
      code: 'quota_exceeded',
      error: ERRORS.quotaExceeded(1).error,
      fields: {},
    });
    // Retry-After: when the count starts again (the 1st of next month, UTC).
    const retryAfter = Number(over.headers['retry-after']);
    expect(Math.abs(retryAfter - (await secondsUntilReset()))).toBeLessThan(10);
    expect(over.headers['access-control-allow-origin']).toBe(ORIGIN);

    // A plain client (a script, curl) gets the same sentence as text.
    const plain = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      body: urlencoded({ message: 'plain' }),
      localAddress: '127.0.8.1',
    });
    expect(plain.status).toBe(429);
    expect(plain.body).toBe(`${ERRORS.quotaExceeded(1).error}\n`);

    // Only the accepted post was stored, with its e-mail; refused posts are not counted.
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 1, deliveries: 1 });
    const { rows } = await pool.query('select id, message from public.entries where form_id = $1', [
      form.formId,
    ]);
    expect(rows).toEqual([{ id: accepted.id, message: 'the 100th' }]);
    expect((await monthUsage(pool, form.userId)).submissions).toBe(100);
  });

  it("sends a browser's refused post to the site's refusal page, naming the reason", async (ctx) => {
    const siteUrl = needsSiteUrl(ctx);
    const form = await ownerOn('free');
    await setMonthUsage(pool, form.userId, 100);
    const res = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
        accept: 'text/html,application/xhtml+xml',
        'sec-fetch-mode': 'navigate',
      },
      body: urlencoded({ message: 'from a browser' }),
      localAddress: '127.0.8.2',
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location!);
    expect(`${location.origin}${location.pathname}`).toBe(
      `${siteUrl.replace(/\/+$/, '')}/form-error`,
    );
    expect(location.searchParams.get('code')).toBe('quota_exceeded');
    expect((await storedFor(pool, form.formId)).entries).toBe(0);
  });

  it('never touches what was accepted: a repeat of an accepted post is still answered as such', async () => {
    const form = await ownerOn('free');
    await setMonthUsage(pool, form.userId, 99);
    const key = randomUUID();
    const first = await post(form.formId, { message: 'kept' }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const { id } = JSON.parse(first.body) as { id: string };

    // The quota is used up now; the lost answer's retry is the same post, stored once.
    const repeat = await post(form.formId, { message: 'kept' }, { 'idempotency-key': key });
    expect(repeat.status).toBe(200);
    expect(JSON.parse(repeat.body)).toEqual({ ok: true, id });
    expect((await post(form.formId, { message: 'new' })).status).toBe(429);

    // The owner still reads, marks and keeps the month's messages.
    const { rows } = await pool.query<{ id: string; message: string }>(
      'select id, message from public.entries where form_id = $1',
      [form.formId],
    );
    expect(rows).toEqual([{ id, message: 'kept' }]);
  });

  it('stores spam without counting it, so bots cannot use up an owner’s month', async () => {
    const form = await ownerOn('free');
    await setMonthUsage(pool, form.userId, 50);
    for (let i = 0; i < 3; i++) {
      const res = await post(form.formId, {
        message: `bot ${i}`,
        [SPECIAL_FIELDS.honeypots[0]]: 'http://spam.example.test',
      });
      expect(res.status).toBe(200);
    }
    const { rows } = await pool.query(
      'select count(*)::int as n from public.entries where form_id = $1 and is_spam',
      [form.formId],
    );
    expect(rows[0]).toEqual({ n: 3 });
    expect((await monthUsage(pool, form.userId)).submissions).toBe(50);
    expect((await post(form.formId, { message: 'a person' })).status).toBe(200);
    expect((await monthUsage(pool, form.userId)).submissions).toBe(51);
  });

  it('lets racing posts take exactly the quota left, never more', async () => {
    const form = await ownerOn('free');
    await setMonthUsage(pool, form.userId, 90);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => post(form.formId, { message: `race ${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(JSON.parse(refused.body).code).toBe('quota_exceeded');
    }
    expect((await storedFor(pool, form.formId)).entries).toBe(10);
    expect((await monthUsage(pool, form.userId)).submissions).toBe(100);
  });

  it('takes a plan change at once', async () => {
    const form = await ownerOn('free');
    await setMonthUsage(pool, form.userId, 100);
    expect((await post(form.formId, { message: 'refused' })).status).toBe(429);
    await setPlan(pool, form.userId, 'starter');
    expect((await post(form.formId, { message: 'on Starter' })).status).toBe(200);
    expect((await monthUsage(pool, form.userId)).submissions).toBe(101);
  });

  it('sets no quota at all on an unlimited deployment', async (ctx) => {
    localOnly(ctx, 'switches the whole deployment for a moment');
    const form = await ownerOn('free');
    await setMonthUsage(pool, form.userId, 100);
    expect((await post(form.formId, { message: 'refused' })).status).toBe(429);
    await pool.query('update private.plan_settings set unlimited = true');
    try {
      expect((await post(form.formId, { message: 'no quotas here' })).status).toBe(200);
    } finally {
      await pool.query('update private.plan_settings set unlimited = false');
    }
    expect((await post(form.formId, { message: 'refused again' })).status).toBe(429);
  });
});

describe('quota warnings', () => {
  const warnings = (mail: CaughtMail[], to: string) =>
    mail.filter((m) => isTo(m, to) && /plan's 100 submissions/.test(m.subject));

  it('e-mails the owner once at 80 % and once at 100 %, with what happens next', async (ctx) => {
    needsMail(ctx);
    const form = await ownerOn('free', 'Warned');
    const to = form.targetEmail;
    const { rows } = await pool.query<{ month: string; resets: string }>(
      `select to_char(now() at time zone 'utc', 'FMMonth') as month,
              to_char(private.usage_resets_at() at time zone 'utc', 'FMDD FMMonth YYYY') as resets`,
    );
    const { month, resets } = rows[0]!;

    await setMonthUsage(pool, form.userId, 78);
    expect((await post(form.formId, { message: '79th' })).status).toBe(200);
    expect(await monthUsage(pool, form.userId)).toEqual({
      submissions: 79,
      warned80: false,
      warned100: false,
    });
    expect((await post(form.formId, { message: '80th' })).status).toBe(200);
    expect(await monthUsage(pool, form.userId)).toMatchObject({ warned80: true, warned100: false });
    expect((await post(form.formId, { message: '81st' })).status).toBe(200);

    // Skip ahead to the month's last two posts; the 80 % warning stays sent.
    await setMonthUsage(pool, form.userId, 98);
    expect((await post(form.formId, { message: '99th' })).status).toBe(200);
    expect((await post(form.formId, { message: '100th' })).status).toBe(200);
    expect(await monthUsage(pool, form.userId)).toEqual({
      submissions: 100,
      warned80: true,
      warned100: true,
    });
    for (let i = 0; i < 3; i++) {
      expect((await post(form.formId, { message: `over ${i}` })).status).toBe(429);
    }

    expect((await runDeliver(stack)).status).toBe(200);
    const eighty = await waitForMail(
      stack.mailWebUrl,
      (m) =>
        isTo(m, to) &&
        m.subject === `You have used 80 of your Free plan's 100 submissions for ${month}`,
      20_000,
    );
    expect(eighty.text).toContain('(80 %)');
    expect(eighty.text).toContain(`until the count starts again on ${resets} (UTC)`);
    expect(eighty.text).toContain('Messages you have already received are kept.');
    expect(eighty.text).toContain('plans are switched by hand on request');
    const full = await waitForMail(
      stack.mailWebUrl,
      (m) =>
        isTo(m, to) && m.subject === `Your Free plan's 100 submissions for ${month} are used up`,
      20_000,
    );
    expect(full.text).toContain(`until the count starts again on ${resets} (UTC), new submissions`);
    expect(full.text).toContain('refused and not stored');

    // Once each: more refusals and more delivery runs send nothing more.
    expect((await post(form.formId, { message: 'over again' })).status).toBe(429);
    expect((await runDeliver(stack)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(
      warnings(await listMail(stack.mailWebUrl), to)
        .map((m) => m.subject)
        .sort(),
    ).toEqual([eighty.subject, full.subject].sort());
    const { rows: queued } = await pool.query(
      `select count(*)::int as n from public.email_deliveries where kind = 'quota_warning' and user_id = $1`,
      [form.userId],
    );
    expect(queued[0]).toEqual({ n: 2 });
  });
});
