// Who the form endpoint may e-mail, over real HTTP on the local stack (gateway → Deno function →
// Postgres; SMTP → mail catcher; the confirm page's RPC through REST as a visitor): only verified
// target addresses, confirmed through a single-use, expiring link or being the owner's own
// account e-mail; never more than the per-account caps; and never more posts per form and minute
// than the per-form cap, however many client addresses send them.
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { CONFIRMATIONS, LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { paths } from '../../src/config/paths.ts';
import { createAuthUser, createForm, superuserPool } from '../support/db.ts';
import { isTo, listMail, waitForMail, type CaughtMail } from '../support/mail.ts';
import { localOnly, needsMail, needsSiteUrl, target } from '../support/target.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  storedFor,
  urlencoded,
  type RawResponse,
  until,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

interface Owned {
  userId: string;
  accountEmail: string;
  formId: string;
  target: string;
}

/** An account and one form of it sending to `target` (another address than the account's). */
async function formOf(
  target = `${unique('target')}@elsewhere.example.test`,
  name = 'Contact',
  user?: { id: string; email: string },
): Promise<Owned> {
  const owner = user ?? (await createAuthUser(pool, 'Owner'));
  const formId = await createForm(pool, owner.id, {
    name,
    target_email: target,
    allowed_origin: ORIGIN,
  });
  return { userId: owner.id, accountEmail: owner.email, formId, target };
}

const post = (formId: string, fields: Record<string, string>, localAddress?: string) =>
  localAddress
    ? requestFrom(localAddress, functionUrl(stack.apiUrl, formId), urlencoded(fields))
    : rawRequest(functionUrl(stack.apiUrl, formId), {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: ORIGIN,
          accept: 'application/json',
        },
        body: urlencoded(fields),
      });

/** A JSON post whose connection starts at `localAddress` (any 127.x.y.z is this machine). */
function requestFrom(localAddress: string, url: string, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          origin: ORIGIN,
          accept: 'application/json',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One `_deliver` run, as the scheduler makes it: composes confirmations, sends what is due. */
async function deliverNow(): Promise<void> {
  const res = await fetch(`${stack.apiUrl}/functions/v1/forms/_deliver`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
  });
  expect(res.status).toBe(200);
}

/** A public RPC as the /confirm-address page calls it: as a signed-out visitor, through REST. */
async function visitorRpc(
  name: string,
  token: string,
): Promise<{ status: string; email?: string }> {
  const res = await fetch(`${stack.apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: {
      apikey: stack.anonKey,
      authorization: `Bearer ${stack.anonKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ p_token: token }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string; email?: string };
}

/** What the /confirm-address page's button does with a token. */
const confirm = (token: string) => visitorRpc('confirm_target_email', token);

const isConfirmation = (m: CaughtMail) => /^Confirm this address/.test(m.subject);

async function confirmationMailTo(address: string, also: (m: CaughtMail) => boolean = () => true) {
  return waitForMail(stack.mailWebUrl, (m) => isTo(m, address) && isConfirmation(m) && also(m));
}

/** The confirmation link of a mail, checked to open the site's confirm page. */
function linkIn(mail: CaughtMail): URL {
  const found = (mail.text ?? '').match(/https?:\/\/\S+/);
  expect(found, mail.text).not.toBeNull();
  const link = new URL(found![0]);
  // The function's SITE_URL: tests that read links call needsSiteUrl first.
  expect(link.origin).toBe(target.siteUrl);
  expect(link.pathname).toBe(paths.confirmAddress);
  expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{64}$/);
  // The HTML part carries the same link.
  expect(mail.html).toContain(link.href.replace(/&/g, '&amp;'));
  return link;
}
const tokenOf = (mail: CaughtMail) => linkIn(mail).searchParams.get('token')!;

async function verifiedFlag(formId: string): Promise<boolean> {
  const { rows } = await pool.query('select target_verified from public.forms where id = $1', [
    formId,
  ]);
  return rows[0]!.target_verified as boolean;
}

async function entriesOf(formId: string) {
  const { rows } = await pool.query<{ id: string; notification_skipped: string | null }>(
    'select id, notification_skipped from public.entries where form_id = $1 order by created_at',
    [formId],
  );
  return rows;
}

/** "Resend confirmation" as the signed-in `userId`, committed (as PostgREST would run it). */
const resendAs = (userId: string, formId: string) =>
  ownerRpc<{ status: string }>(userId, 'resend_target_confirmation', formId);

/** An owner's RPC on one form as the signed-in `userId`, committed (as PostgREST would run it). */
async function ownerRpc<T>(userId: string, name: string, formId: string): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('set local role authenticated');
    await client.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: userId, role: 'authenticated' }),
    ]);
    const { rows } = await client.query(`select public.${name}($1) as r`, [formId]);
    await client.query('commit');
    return rows[0]!.r as T;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

const notificationsTo = async (address: string) =>
  (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, address) && !isConfirmation(m));

describe('an unverified target address', () => {
  it('gets the messages stored, not e-mailed, and a confirmation link; once confirmed, the next message is mailed', async (ctx) => {
    needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await formOf(undefined, 'Sales <b>&</b> "quotes"');
    expect(await verifiedFlag(form.formId)).toBe(false);

    const first = await post(form.formId, { name: 'Ada', message: 'before confirming' });
    expect(first.status).toBe(200);
    expect(await entriesOf(form.formId)).toEqual([
      { id: JSON.parse(first.body).id, notification_skipped: 'unverified' },
    ]);
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 1, deliveries: 0 });

    await deliverNow();
    const mail = await confirmationMailTo(form.target);
    expect(mail.text).toContain(form.accountEmail);
    expect(mail.text).toContain('Sales <b>&</b> "quotes"');
    expect(mail.html).toContain('Sales &lt;b&gt;&amp;&lt;/b&gt; &quot;quotes&quot;');
    expect(mail.html).not.toContain('<b>&</b>');
    expect(mail.text).toContain(`expires in ${CONFIRMATIONS.linkValidHours} hours`);
    // Only the hash of the token is stored.
    const token = tokenOf(mail);
    const { rows: stored } = await pool.query(
      `select count(*)::int as n from private.target_email_confirmations
        where token_hash = sha256(convert_to($1, 'UTF8'))`,
      [token],
    );
    expect(stored[0]!.n).toBe(1);
    const { rows: plain } = await pool.query(
      `select count(*)::int as n from private.target_email_confirmations c
        where position($1 in c::text) > 0`,
      [token],
    );
    expect(plain[0]!.n).toBe(0);

    // The answer names the address and the form, as the page thanks the recipient for them.
    expect(await confirm(token)).toEqual({
      status: 'confirmed',
      email: form.target,
      form: 'Sales <b>&</b> "quotes"',
    });
    expect(await verifiedFlag(form.formId)).toBe(true);

    const second = await post(form.formId, { name: 'Ada', message: 'after confirming' });
    expect(second.status).toBe(200);
    const notification = await waitForMail(
      stack.mailWebUrl,
      (m) => isTo(m, form.target) && !isConfirmation(m),
      20_000,
    );
    expect(notification.text).toContain('after confirming');
    expect(await notificationsTo(form.target)).toHaveLength(1);
    expect((await entriesOf(form.formId)).map((e) => e.notification_skipped)).toEqual([
      'unverified',
      null,
    ]);

    // The link works once.
    expect(await confirm(token)).toEqual({ status: 'used' });
  });

  it('refuses an expired link and changes nothing', async (ctx) => {
    needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await formOf();
    await deliverNow();
    const token = tokenOf(await confirmationMailTo(form.target));
    await pool.query(
      `update private.target_email_confirmations set expires_at = now() - interval '1 second'
        where token_hash = sha256(convert_to($1, 'UTF8'))`,
      [token],
    );
    expect(await confirm(token)).toEqual({ status: 'expired' });
    expect(await verifiedFlag(form.formId)).toBe(false);
    const { rows } = await pool.query(
      'select count(*)::int as n from private.verified_target_emails where user_id = $1',
      [form.userId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('is not verified by tokens nobody was sent', async () => {
    const form = await formOf();
    for (const token of [
      randomBytes(32).toString('hex'),
      '',
      'x',
      "' or 1=1 --",
      randomBytes(32).toString('hex').toUpperCase(),
    ])
      expect(await confirm(token)).toEqual({ status: 'invalid' });
    expect(await verifiedFlag(form.formId)).toBe(false);
  });

  it("is verified for the account that confirmed it, never for another account's form", async (ctx) => {
    needsSiteUrl(ctx);
    needsMail(ctx);
    const shared = `${unique('shared')}@elsewhere.example.test`;
    const alice = await formOf(shared, 'Alice form');
    const bob = await formOf(shared, 'Bob form');
    await deliverNow();
    const aliceMail = await confirmationMailTo(shared, (m) =>
      (m.text ?? '').includes(alice.accountEmail),
    );
    await confirmationMailTo(shared, (m) => (m.text ?? '').includes(bob.accountEmail));

    expect(await confirm(tokenOf(aliceMail))).toMatchObject({ status: 'confirmed' });
    expect(await verifiedFlag(alice.formId)).toBe(true);
    expect(await verifiedFlag(bob.formId)).toBe(false);
    // One confirmation covers every form of Alice's with that address, whatever its case.
    const another = await formOf(shared.toUpperCase(), 'Alice again', {
      id: alice.userId,
      email: alice.accountEmail,
    });
    expect(await verifiedFlag(another.formId)).toBe(true);

    await post(bob.formId, { message: 'to Bob, still unconfirmed' });
    expect(await entriesOf(bob.formId)).toEqual([
      { id: expect.any(String), notification_skipped: 'unverified' },
    ]);
  });

  it("needs no confirmation when it is the owner's own account e-mail", async (ctx) => {
    needsMail(ctx);
    const ownEmail = `${unique('Own')}@Owner.example.test`;
    const owner = await createAuthUser(pool, 'Owner', ownEmail);
    const form = await formOf(ownEmail.toLowerCase(), 'Own inbox', owner);
    expect(await verifiedFlag(form.formId)).toBe(true);

    await post(form.formId, { message: 'straight to my inbox' });
    const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, ownEmail), 20_000);
    expect(mail.text).toContain('straight to my inbox');
    const { rows } = await pool.query(
      'select count(*)::int as n from private.target_email_confirmations where user_id = $1',
      [owner.id],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('loses its verification when the target changes to an unconfirmed one, which gets its own link', async (ctx) => {
    needsMail(ctx);
    const ownEmail = `${unique('own')}@owner.example.test`;
    const owner = await createAuthUser(pool, 'Owner', ownEmail);
    const form = await formOf(ownEmail, 'Moving', owner);
    expect(await verifiedFlag(form.formId)).toBe(true);
    const next = `${unique('next')}@elsewhere.example.test`;
    await pool.query('update public.forms set target_email = $2 where id = $1', [
      form.formId,
      next,
    ]);
    expect(await verifiedFlag(form.formId)).toBe(false);
    await post(form.formId, { message: 'after the change' });
    expect((await entriesOf(form.formId))[0]!.notification_skipped).toBe('unverified');
    await deliverNow();
    await confirmationMailTo(next);
  });
});

describe('confirmation e-mails', () => {
  it('are resent by the owner at most once per interval, and a resend confirms as well', async (ctx) => {
    needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await formOf();
    await deliverNow();
    const firstToken = tokenOf(await confirmationMailTo(form.target));

    const resend = () => resendAs(form.userId, form.formId);
    expect(await resend()).toEqual({ status: 'requested', email: form.target });
    expect(await resend()).toEqual({
      status: 'already_requested',
      email: form.target,
    });

    // Within the interval since the first mail nothing more is sent; the request waits.
    await deliverNow();
    const confirmations = async () =>
      (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, form.target) && isConfirmation(m));
    expect(await confirmations()).toHaveLength(1);

    // Once the interval has passed (moved back in the database rather than waited for), it goes.
    await pool.query(
      `update private.target_email_confirmations
          set queued_at = queued_at - make_interval(secs => $2)
        where user_id = $1 and queued_at is not null`,
      [form.userId, CONFIRMATIONS.resendIntervalSeconds + 1],
    );
    await deliverNow();
    const second = await waitForMail(
      stack.mailWebUrl,
      (m) => isTo(m, form.target) && isConfirmation(m) && tokenOf(m) !== firstToken,
    );
    expect(await confirm(tokenOf(second))).toMatchObject({ status: 'confirmed' });
    expect(await verifiedFlag(form.formId)).toBe(true);
  });

  it('stop at the daily caps per account and per recipient', async () => {
    const owner = await createAuthUser(pool, 'Busy owner');
    const forms: Owned[] = [];
    for (let i = 0; i <= CONFIRMATIONS.perAccountPerDay; i++)
      forms.push(await formOf(undefined, `Form ${i}`, owner));
    await deliverNow();
    const { rows } = await pool.query<{ queued: number; skipped: number }>(
      `select count(*) filter (where queued_at is not null)::int as queued,
              count(*) filter (where skipped = 'limit')::int as skipped
         from private.target_email_confirmations where user_id = $1`,
      [owner.id],
    );
    expect(rows[0]).toEqual({ queued: CONFIRMATIONS.perAccountPerDay, skipped: 1 });

    // One address, many accounts: at most perRecipientPerDay mails reach it.
    const victim = `${unique('victim')}@elsewhere.example.test`;
    for (let i = 0; i <= CONFIRMATIONS.perRecipientPerDay; i++) await formOf(victim);
    await deliverNow();
    const { rows: toVictim } = await pool.query<{ queued: number; skipped: number }>(
      `select count(*) filter (where queued_at is not null)::int as queued,
              count(*) filter (where skipped = 'limit')::int as skipped
         from private.target_email_confirmations where email = $1`,
      [victim],
    );
    expect(toVictim[0]).toEqual({ queued: CONFIRMATIONS.perRecipientPerDay, skipped: 1 });
  });

  it('keep their per-recipient cap when the asking accounts are deleted, and name the form only by a short link-free label', async (ctx) => {
    needsMail(ctx);
    // "Sign up, make a form that mails the victim, delete the account", again and again: at most
    // the per-recipient cap of confirmation mails reaches the victim.
    const victim = `${unique('victim')}@elsewhere.example.test`;
    for (let i = 0; i < CONFIRMATIONS.perRecipientPerDay + 2; i++) {
      const asker = await formOf(
        victim,
        'Your mailbox is full: verify at https://evil.example/login now or write to help@evil.example',
      );
      await deliverNow();
      await pool.query('delete from auth.users where id = $1', [asker.userId]);
    }
    await deliverNow();
    const received = await until(
      'the confirmation mails to arrive',
      async () => (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, victim)),
      (mails) => mails.length >= CONFIRMATIONS.perRecipientPerDay,
    );
    // A moment more for a mail over the cap, were one on its way.
    await deliverNow();
    expect((await listMail(stack.mailWebUrl)).filter((m) => isTo(m, victim))).toHaveLength(
      CONFIRMATIONS.perRecipientPerDay,
    );
    for (const mail of received) {
      expect(mail.text).toContain(
        'wants its form "Your mailbox is full: verify at now or write to"',
      );
      expect(`${mail.text}${mail.html}`).not.toMatch(/evil\.example/);
    }
  });
});

describe('confirmation mails at once, and the messages received meanwhile', () => {
  /** The dashboard's "send now" after creating a form: no key, as supabase-js invokes it. */
  const kickMail = async () => {
    const res = await fetch(`${stack.apiUrl}/functions/v1/forms/_mail`, {
      method: 'POST',
      headers: {
        apikey: stack.anonKey,
        authorization: `Bearer ${stack.anonKey}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(res.status).toBe(202);
  };
  const confirmationsTo = async (address: string) =>
    (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, address) && isConfirmation(m));

  interface Held {
    status: string;
    queued?: number;
    remaining?: number;
    email?: string;
  }
  const sendHeld = (form: Owned) =>
    ownerRpc<Held>(form.userId, 'send_held_notifications', form.formId);
  async function heldOf(formId: string): Promise<number> {
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int as n from private.held_notifications where form_id = $1',
      [formId],
    );
    return rows[0]!.n;
  }

  it('leave within seconds when the dashboard asks, with no key, and asking again sends no more', async (ctx) => {
    needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await formOf(undefined, 'Quick link');
    const started = Date.now();
    await kickMail();
    const mail = await confirmationMailTo(form.target);
    // The scheduled run comes once a minute: this one was the dashboard's.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(mail.text).toContain('Quick link');

    // Idempotent: the same request is never composed twice, and a stranger's calls add nothing.
    await kickMail();
    await kickMail();
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await confirmationsTo(form.target)).toHaveLength(1);

    // The page's first look names the address and the form, and changes nothing.
    const token = tokenOf(mail);
    expect(await visitorRpc('target_confirmation_details', token)).toEqual({
      status: 'pending',
      email: form.target,
      form: 'Quick link',
    });
    expect(await verifiedFlag(form.formId)).toBe(false);
    expect(await visitorRpc('target_confirmation_details', 'f'.repeat(64))).toEqual({
      status: 'invalid',
    });
    expect(await confirm(token)).toMatchObject({ status: 'confirmed' });
    expect(await visitorRpc('target_confirmation_details', token)).toEqual({ status: 'used' });
  });

  it('are kept while the address waits, and sent once it is confirmed, on the owner’s request, once', async (ctx) => {
    needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await formOf(undefined, 'Held');
    await post(form.formId, {
      name: 'Ada',
      message: 'first, while waiting',
      _subject: 'Quote please',
    });
    await post(form.formId, {
      name: 'Bob',
      email: 'bob@example.org',
      message: 'second, while waiting',
    });
    const spam = await post(form.formId, { message: 'third, later marked spam' });
    expect((await entriesOf(form.formId)).map((e) => e.notification_skipped)).toEqual([
      'unverified',
      'unverified',
      'unverified',
    ]);
    await until(
      'the notifications kept',
      () => heldOf(form.formId),
      (n) => n === 3,
    );
    await pool.query('update public.entries set is_spam = true where id = $1', [
      JSON.parse(spam.body).id,
    ]);

    // Never to an address nobody confirmed; never by another account.
    expect(await sendHeld(form)).toEqual({ status: 'unverified' });
    const stranger = await createAuthUser(pool, 'Stranger');
    expect(await ownerRpc(stranger.id, 'send_held_notifications', form.formId)).toEqual({
      status: 'not_found',
    });
    expect(await notificationsTo(form.target)).toEqual([]);

    await kickMail();
    expect(await confirm(tokenOf(await confirmationMailTo(form.target)))).toMatchObject({
      status: 'confirmed',
    });
    expect(await sendHeld(form)).toEqual({
      status: 'queued',
      queued: 2,
      remaining: 0,
      email: form.target,
    });
    await kickMail();
    const mails = await until(
      'the two kept notifications',
      () => notificationsTo(form.target),
      (m) => m.length >= 2,
    );
    // As they would have been sent: the visitor's subject and words, oldest first.
    expect(mails.map((m) => m.subject).sort()).toEqual(['New submission: Held', 'Quote please']);
    expect(mails.map((m) => m.text).join('\n')).toContain('first, while waiting');
    expect(mails.map((m) => m.text).join('\n')).toContain('second, while waiting');
    expect(mails.map((m) => m.text).join('\n')).not.toContain('later marked spam');
    expect((await entriesOf(form.formId)).map((e) => e.notification_skipped)).toEqual([
      null,
      null,
      'unverified',
    ]);
    // Once.
    expect(await sendHeld(form)).toEqual({ status: 'none' });
    await kickMail();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await notificationsTo(form.target)).toHaveLength(2);
  });

  it('go within the account’s notification caps; the rest waits for the next try', async (ctx) => {
    needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await formOf(undefined, 'Capped held');
    for (let i = 1; i <= 3; i++) await post(form.formId, { message: `kept ${i}` });
    await until(
      'the notifications kept',
      () => heldOf(form.formId),
      (n) => n === 3,
    );
    await kickMail();
    expect(await confirm(tokenOf(await confirmationMailTo(form.target)))).toMatchObject({
      status: 'confirmed',
    });
    // The account has sent all but one of its hourly notifications.
    await pool.query(
      'select public.count_notification_send($1, now()) from generate_series(1, $2)',
      [form.userId, LIMITS.notificationsPerHour - 1],
    );
    expect(await sendHeld(form)).toEqual({
      status: 'queued',
      queued: 1,
      remaining: 2,
      email: form.target,
    });
    expect(await sendHeld(form)).toEqual({ status: 'limited', remaining: 2 });
    expect(await heldOf(form.formId)).toBe(2);
  });

  it('go with their message', async () => {
    const form = await formOf(undefined, 'Deleted meanwhile');
    const res = await post(form.formId, { message: 'to be deleted' });
    await until(
      'the notification kept',
      () => heldOf(form.formId),
      (n) => n === 1,
    );
    await pool.query('delete from public.entries where id = $1', [JSON.parse(res.body).id]);
    expect(await heldOf(form.formId)).toBe(0);
  });
});

describe('per-account notification caps', () => {
  const accept = (formId: string, caps: { hour: number; day: number }, ip = 'cap-test') =>
    pool
      .query<{ r: { status: string; delivery_id: string | null; notification_skipped: string } }>(
        `select public.accept_submission(gen_random_uuid(), $1, $2, null, null, 'm', '{}', false,
           '{"subject":"s","text":"t","html":"h"}', 1000, 1000, null, $3, $4) as r`,
        [formId, ip, caps.hour, caps.day],
      )
      .then((res) => res.rows[0]!.r);

  async function verifiedForm() {
    const email = `${unique('capped')}@owner.example.test`;
    const owner = await createAuthUser(pool, 'Owner', email);
    return formOf(email, 'Capped', owner);
  }

  it('stop e-mails past the hourly cap, store the messages, and are not reset by deleting them', async () => {
    const form = await verifiedForm();
    const caps = { hour: 2, day: 10 };
    expect((await accept(form.formId, caps)).notification_skipped).toBeNull();
    expect((await accept(form.formId, caps)).notification_skipped).toBeNull();
    const third = await accept(form.formId, caps);
    expect(third).toMatchObject({
      status: 'accepted',
      delivery_id: null,
      notification_skipped: 'hourly_limit',
    });
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 3, deliveries: 2 });

    // The owner deletes every message (and with them their deliveries): still capped.
    await pool.query('delete from public.entries where form_id = $1', [form.formId]);
    expect((await accept(form.formId, caps)).notification_skipped).toBe('hourly_limit');
    // Every form of the account counts towards it.
    const other = await formOf(form.target, 'Second form', {
      id: form.userId,
      email: form.accountEmail,
    });
    expect((await accept(other.formId, caps)).notification_skipped).toBe('hourly_limit');
  });

  it('stop e-mails past the daily cap', async () => {
    const form = await verifiedForm();
    const caps = { hour: 100, day: 2 };
    await accept(form.formId, caps);
    await accept(form.formId, caps);
    expect((await accept(form.formId, caps)).notification_skipped).toBe('daily_limit');
  });

  it('are the ones in limits.ts at the endpoint', async () => {
    const form = await verifiedForm();
    // An hour's worth of notifications already queued for this account.
    await pool.query(
      `insert into private.notification_sends (user_id, sent_at)
         select $1, now() - interval '30 minutes' from generate_series(1, $2)`,
      [form.userId, LIMITS.notificationsPerHour],
    );
    const res = await post(form.formId, { message: 'over the hourly cap' });
    expect(res.status).toBe(200);
    expect(await entriesOf(form.formId)).toEqual([
      { id: JSON.parse(res.body).id, notification_skipped: 'hourly_limit' },
    ]);
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 1, deliveries: 0 });
  });
});

describe('the per-form cap per minute', () => {
  it('refuses posts over it from all clients together, with Retry-After', async () => {
    const form = await formOf();
    const accept = (ip: string) =>
      pool
        .query<{ r: { status: string; retry_after?: number } }>(
          `select public.accept_submission(gen_random_uuid(), $1, $2, null, null, 'm', '{}', false,
             null, 5, 50, 3, null, null) as r`,
          [form.formId, ip],
        )
        .then((res) => res.rows[0]!.r);
    for (const ip of ['client-a', 'client-b', 'client-c'])
      expect((await accept(ip)).status).toBe('accepted');
    const refused = await accept('client-d');
    expect(refused.status).toBe('rate_limited');
    expect(refused.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused.retry_after).toBeLessThanOrEqual(60);
    expect((await storedFor(pool, form.formId)).entries).toBe(3);
  });

  it(
    'holds at the endpoint against posts from many client addresses',
    { timeout: 120_000 },
    async (ctx) => {
      localOnly(ctx, 'it posts from many 127.x client addresses, which reach only this machine');
      const form = await formOf();
      await pool.query('update public.forms set notify_email = false where id = $1', [form.formId]);
      // Every post from its own loopback address: the per-client limit never applies.
      const address = (i: number) => `127.0.${1 + Math.floor(i / 200)}.${1 + (i % 200)}`;
      for (let i = 0; i < LIMITS.formRatePerMinute; i++) {
        const res = await post(form.formId, { message: `post ${i}` }, address(i));
        expect(res.status, res.body).toBe(200);
      }
      const refused = await post(form.formId, { message: 'one too many' }, address(999));
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ ok: false, code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await storedFor(pool, form.formId)).entries).toBe(LIMITS.formRatePerMinute);
      const { rows } = await pool.query<{ clients: number }>(
        `select count(distinct ip_hash)::int as clients from private.submission_rate_limits
          where form_id = $1`,
        [form.formId],
      );
      expect(rows[0]!.clients).toBe(LIMITS.formRatePerMinute + 1);
    },
  );
});
