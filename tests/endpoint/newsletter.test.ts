// The site's footer signup through real HTTP on the local stack (gateway → Deno `newsletter`
// function → Postgres; the outbox → SMTP → mail catcher). The footer signs up to the site's own
// list (the one set_site_list() marks; the seed marks the site account's), through the owners'
// lists' machinery: one answer for every valid address, one address per request, a per-client
// limit no forged header escapes, a confirmation e-mail in the list's words whose link confirms
// once, unsubscribe links of earlier footer mail that still work, and no way around it through
// REST.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { LISTS } from '../../supabase/functions/_shared/limits.ts';
import { paths } from '../../src/config/paths.ts';
import { superuserPool, uniqueEmail } from '../support/db.ts';
import { isTo, listMail, waitForMail, type CaughtMail } from '../support/mail.ts';
import { needsMail, needsSiteUrl, remote } from '../support/target.ts';
import { rawRequest, until, type RawResponse } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const signupUrl = () => `${stack.apiUrl}/functions/v1/newsletter`;
let pool: pg.Pool;
/** The site list (the seed marks one; a deployment without the seed may have none yet). */
let siteList: { id: string; owner: string; name: string } | undefined;

/** The site list's client allowances (every request here comes from 127.0.0.1). */
const resetLimits = () =>
  siteList
    ? pool.query(`delete from private.action_ledger where kind = 'list_signup' and user_id = $1`, [
        siteList.owner,
      ])
    : Promise.resolve();

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  const { rows } = await pool.query<{ id: string; user_id: string; name: string }>(
    'select id, user_id, name from public.newsletter_lists where site_list',
  );
  siteList = rows[0] && { id: rows[0].id, owner: rows[0].user_id, name: rows[0].name };
  // The first request boots the function's worker (and fetches its npm packages).
  const res = await rawRequest(signupUrl(), { method: 'OPTIONS' });
  expect(res.status).toBe(204);
}, 120_000);
afterAll(async () => {
  // Leave no spent budget behind for the next file.
  await resetLimits();
  await pool.end();
});
beforeEach(async (ctx) => {
  if (!siteList) {
    // Only a stack given as a remote project can lack it: the local stack is always seeded.
    expect(remote).toBe(true);
    ctx.skip('no list is the site list yet: select public.set_site_list(<list id>)');
  }
  await resetLimits();
});

const signup = (body: string, headers: Record<string, string> = {}) =>
  rawRequest(signupUrl(), {
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
const signupJson = (email: unknown, headers: Record<string, string> = {}) =>
  signup(JSON.stringify({ email }), headers);

/** What a client sees of an answer: status, body and every header but the date. */
const visible = (res: RawResponse) => ({
  status: res.status,
  body: res.body,
  headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => name !== 'date')),
});

async function subscriber(email: string) {
  const { rows } = await pool.query<{ id: string; status: string; consent_at: Date | null }>(
    `select id, status, consent_at from public.list_subscribers
      where list_id = $1 and lower(email) = lower($2)`,
    [siteList!.id, email],
  );
  return rows[0] ?? null;
}

async function confirmationsQueued(email: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from public.email_deliveries
      where kind = 'list_confirmation' and lower(recipient) = lower($1)`,
    [email],
  );
  return rows[0]!.n;
}

const confirmationTo = (email: string) =>
  waitForMail(stack.mailWebUrl, (m) => isTo(m, email), 20_000);

/** The confirm link of a confirmation e-mail (from its text part). */
function confirmLinkOf(mail: CaughtMail): string {
  const m = /https?:\/\/\S+\/newsletter\/(?:lists\/)?confirm\?\S*token=[\w-]+/.exec(
    mail.text ?? '',
  );
  if (!m) throw new Error(`no confirm link in: ${mail.text}`);
  return m[0];
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const actionUrl = (action: 'confirm' | 'unsubscribe' | 'lists/confirm') =>
  `${stack.apiUrl}/functions/v1/newsletter/${action}`;

/** What the link's page does when its button is pressed: POST the token to the function. */
const press = (action: 'confirm' | 'unsubscribe' | 'lists/confirm', token: string) =>
  rawRequest(actionUrl(action), {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });

describe('signing up', () => {
  it('answers new, pending and confirmed addresses identically, with no Content-Range', async () => {
    const fresh = uniqueEmail('fresh');
    const pending = uniqueEmail('pending');
    const confirmed = uniqueEmail('confirmed');
    expect((await signupJson(pending)).status).toBe(202);
    expect((await signupJson(confirmed)).status).toBe(202);
    await pool.query(
      `update public.list_subscribers set status = 'confirmed', consent_at = now(), confirmed_at = now()
        where list_id = $1 and email = $2`,
      [siteList!.id, confirmed],
    );
    await resetLimits();

    const answers = [];
    for (const email of [fresh, pending, confirmed]) answers.push(visible(await signupJson(email)));
    expect(answers[0]).toMatchObject({ status: 202, body: '{"ok":true}' });
    expect(answers[0]!.headers['content-range']).toBeUndefined();
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);

    expect((await subscriber(fresh))?.status).toBe('pending');
    expect((await subscriber(pending))?.status).toBe('pending');
    expect((await subscriber(confirmed))?.status).toBe('confirmed');
    // One e-mail to the pending address (the repeat fell in its cooldown), none to the confirmed.
    expect(await confirmationsQueued(pending)).toBe(1);
    expect(await confirmationsQueued(confirmed)).toBe(1);
  });

  it('e-mails a stranger at most once per cooldown, however often and from wherever it is asked', async () => {
    const email = uniqueEmail('stranger');
    for (let i = 0; i < LISTS.perClientPerMinute; i++) {
      const res = await signupJson(i % 2 ? email.toUpperCase() : email, {
        'x-forwarded-for': `198.51.100.${i}`,
      });
      expect(res.status).toBe(202);
    }
    expect(await confirmationsQueued(email)).toBe(1);
  });

  it('stores the address trimmed and in lower case, from JSON or a urlencoded body', async () => {
    const email = uniqueEmail('Mixed.Case');
    const res = await rawRequest(signupUrl(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: `  ${email.toUpperCase()} ` }).toString(),
    });
    expect(res.status).toBe(202);
    const { rows } = await pool.query(
      'select email, source from public.list_subscribers where list_id = $1 and lower(email) = lower($2)',
      [siteList!.id, email],
    );
    expect(rows).toEqual([{ email: email.toLowerCase(), source: 'form' }]);
  });

  it('refuses a body of 5 000 addresses, in any shape, and subscribes none of them', async () => {
    const batch = Array.from({ length: 5000 }, (_, i) => uniqueEmail(`bulk${i}`));
    const bodies: [string, string][] = [
      ['application/json', JSON.stringify(batch)],
      ['application/json', JSON.stringify({ email: batch })],
      ['application/json', JSON.stringify(batch.map((email) => ({ email })))],
      [
        'application/x-www-form-urlencoded',
        new URLSearchParams(batch.map((email) => ['email', email])).toString(),
      ],
    ];
    for (const [type, body] of bodies) {
      const res = await signup(body, { 'content-type': type });
      expect(res.status, body.slice(0, 40)).toBe(413);
    }
    // Small enough to be read, still more than one address: refused as well.
    const two = batch.slice(0, 2);
    for (const body of [
      JSON.stringify(two),
      JSON.stringify({ email: two }),
      JSON.stringify({ email: two.join(',') }),
      JSON.stringify({ email: two[0], other: two[1] }),
    ]) {
      const res = await signup(body);
      expect(res.status, body).toBe(400);
    }
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int as n from public.list_subscribers where email = any($1)',
      [batch],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('refuses an invalid address with the spec text', async () => {
    const res = await signupJson('not-an-email');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'Please enter a valid email.' });
  });

  it('throttles a client with 429 and Retry-After, whatever X-Forwarded-For it writes', async () => {
    for (let i = 0; i < LISTS.perClientPerMinute; i++) {
      const res = await signupJson(uniqueEmail('throttle'), {
        'x-forwarded-for': `203.0.113.${i}`,
      });
      expect(res.status).toBe(202);
    }
    const email = uniqueEmail('throttled');
    const res = await signupJson(email, { 'x-forwarded-for': '192.0.2.77' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await subscriber(email)).toBeNull();
  });

  it('answers the CORS preflight so the site can call it from the browser', async () => {
    const res = await rawRequest(signupUrl(), {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, apikey, content-type, x-client-info',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toContain('x-client-info');
  });
});

describe('the confirmation e-mail', () => {
  it("is the site list's, in its words, linking to the site's page, whose button confirms once", async (ctx) => {
    // The function's SITE_URL (supabase/config.toml's auth.site_url locally): the link's page.
    const SITE_URL = needsSiteUrl(ctx);
    needsMail(ctx);
    const email = uniqueEmail('reader');
    expect((await signupJson(email)).status).toBe(202);
    const mail = await confirmationTo(email);
    expect(mail.subject).toBe(`Confirm your subscription to ${siteList!.name}`);
    const { rows } = await pool.query<{ confirm_message: string }>(
      'select confirm_message from public.newsletter_lists where id = $1',
      [siteList!.id],
    );
    expect(mail.text).toContain(rows[0]!.confirm_message);
    const link = confirmLinkOf(mail);
    expect(link.startsWith(`${SITE_URL}${paths.newsletterConfirm}?list=1&token=`)).toBe(true);
    expect((await subscriber(email))?.status).toBe('pending');

    const confirmed = await press('lists/confirm', tokenOf(link));
    expect(confirmed.status).toBe(200);
    expect(JSON.parse(confirmed.body)).toEqual({ ok: true, listName: siteList!.name });
    const after = await subscriber(email);
    expect(after?.status).toBe('confirmed');
    expect(after?.consent_at).not.toBeNull();

    // Used once: a second press, and a token nobody was sent, get the same neutral answer.
    const again = visible(await press('lists/confirm', tokenOf(link)));
    const unknown = visible(await press('lists/confirm', 'A'.repeat(43)));
    expect(again.status).toBe(404);
    expect(JSON.parse(again.body)).toMatchObject({ ok: false, code: 'invalid_link' });
    expect(unknown).toEqual(again);
  });

  it('is confirmed through the footer’s own confirm route too (links of earlier mail)', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('old-route');
    expect((await signupJson(email)).status).toBe(202);
    const token = tokenOf(confirmLinkOf(await confirmationTo(email)));
    const res = await press('confirm', token);
    expect(JSON.parse(res.body)).toEqual({ ok: true, status: 'confirmed' });
    expect((await subscriber(email))?.status).toBe('confirmed');
  });

  it('changes nothing when a mail scanner fetches the link', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('scanned');
    expect((await signupJson(email)).status).toBe(202);
    const link = confirmLinkOf(await confirmationTo(email));
    // The e-mail's link is the site's page (served statically); the function's own link URLs only
    // redirect there.
    for (const action of ['confirm', 'lists/confirm'] as const) {
      const res = await rawRequest(`${actionUrl(action)}?token=${tokenOf(link)}`, {
        method: 'GET',
      });
      expect(res.status).toBe(303);
      const head = await rawRequest(`${actionUrl(action)}?token=${tokenOf(link)}`, {
        method: 'HEAD',
      });
      expect(head.status).toBe(405);
    }
    expect((await subscriber(email))?.status).toBe('pending');
  });

  it('refuses an expired confirm link', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('late');
    expect((await signupJson(email)).status).toBe(202);
    const link = confirmLinkOf(await confirmationTo(email));
    await pool.query(
      `update private.list_subscriber_tokens t set expires_at = now() - interval '1 second'
         from public.list_subscribers s
        where s.id = t.subscriber_id and s.email = $1 and t.purpose = 'confirm'`,
      [email],
    );
    expect((await press('lists/confirm', tokenOf(link))).status).toBe(404);
    expect((await subscriber(email))?.status).toBe('pending');
  });

  it('stores only the hash of the link’s token', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('hashed');
    expect((await signupJson(email)).status).toBe(202);
    const token = tokenOf(confirmLinkOf(await confirmationTo(email)));
    const { rows } = await pool.query<{ token_hash: string }>(
      `select t.token_hash from private.list_subscriber_tokens t
         join public.list_subscribers s on s.id = t.subscriber_id where s.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
  });
});

describe('footer sign-ups from before the site list', () => {
  const hash = (token: string) => createHash('sha256').update(token).digest('hex');

  it('move into it with their consent and their links, which keep working', async () => {
    const confirmedEmail = uniqueEmail('legacy-confirmed');
    const pendingEmail = uniqueEmail('legacy-pending');
    const unsubscribeToken = 'U'.repeat(43);
    const confirmToken = 'C'.repeat(42) + 'x';
    const { rows } = await pool.query<{ id: string; email: string }>(
      `insert into private.newsletter_subscribers (email, status, confirmed_at, created_at)
       values ($1, 'confirmed', now() - interval '90 days', now() - interval '100 days'),
              ($2, 'pending', null, now())
       returning id, email`,
      [confirmedEmail, pendingEmail],
    );
    const idOf = (email: string) => rows.find((r) => r.email === email)!.id;
    await pool.query(
      `insert into private.newsletter_tokens (token_hash, subscriber_id, purpose, expires_at) values
         ($1, $2, 'unsubscribe', null), ($3, $4, 'confirm', now() + interval '1 day')`,
      [hash(unsubscribeToken), idOf(confirmedEmail), hash(confirmToken), idOf(pendingEmail)],
    );
    // Marking the same list again moves what waits (a deployment marks its list once).
    const moved = await pool.query<{ r: { moved: number } }>(
      'select public.set_site_list($1) as r',
      [siteList!.id],
    );
    expect(moved.rows[0]!.r.moved).toBeGreaterThanOrEqual(2);
    const legacy = await pool.query(
      'select 1 from private.newsletter_subscribers where email = any($1)',
      [[confirmedEmail, pendingEmail]],
    );
    expect(legacy.rows).toEqual([]);
    const kept = await subscriber(confirmedEmail);
    expect(kept?.status).toBe('confirmed');
    expect(kept?.consent_at?.getTime()).toBeLessThan(Date.now() - 80 * 86_400_000);

    // The pending one's confirm link and the confirmed one's unsubscribe link still work.
    expect(JSON.parse((await press('confirm', confirmToken)).body)).toEqual({
      ok: true,
      status: 'confirmed',
    });
    expect((await subscriber(pendingEmail))?.status).toBe('confirmed');
    expect(JSON.parse((await press('unsubscribe', unsubscribeToken)).body)).toEqual({
      ok: true,
      status: 'unsubscribed',
    });
    expect((await subscriber(confirmedEmail))?.status).toBe('unsubscribed');
    // RFC 8058's one-click form of the same link, token in the URL: harmless to repeat.
    const oneClick = await rawRequest(`${actionUrl('unsubscribe')}?token=${unsubscribeToken}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    // An unsubscribe token never confirms.
    expect((await press('confirm', unsubscribeToken)).status).toBe(404);
  });

  it('can only be moved by the database owner', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(`set local role ${role}`);
        await expect(
          client.query('select public.set_site_list($1)', [siteList!.id]),
        ).rejects.toMatchObject({ code: '42501' });
      } finally {
        await client.query('rollback');
        client.release();
      }
    }
  });
});

describe('around the function', () => {
  it('refuses a direct REST insert by a visitor, telling nothing about the list', async () => {
    const email = uniqueEmail('direct');
    const res = await fetch(`${stack.apiUrl}/rest/v1/newsletter_subscribers`, {
      method: 'POST',
      headers: {
        apikey: stack.anonKey,
        authorization: `Bearer ${stack.anonKey}`,
        'content-type': 'application/json',
        prefer: 'return=minimal, count=exact',
      },
      body: JSON.stringify({ email }),
    });
    // The list is in the private schema, which the Data API does not serve at all.
    expect(res.status).toBe(404);
    expect((await res.json()) as { code: string }).toMatchObject({ code: 'PGRST205' });
    expect(res.headers.get('content-range')).toBeNull();
    expect(await subscriber(email)).toBeNull();
  });

  it('forgets unconfirmed addresses, and the outbox copies of their mail, in the sweep', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('forgotten');
    expect((await signupJson(email)).status).toBe(202);
    await confirmationTo(email);
    // Caught by the mail catcher a moment before the worker records it as sent.
    await until(
      'the confirmation e-mail to be recorded as sent',
      () =>
        pool
          .query<{ status: string }>(
            `select status from public.email_deliveries
              where kind = 'list_confirmation' and recipient = $1`,
            [email],
          )
          .then((r) => r.rows.map((row) => row.status)),
      (statuses) => statuses.length === 1 && statuses[0] === 'sent',
    );
    await pool.query(
      `update public.list_subscribers set created_at = now() - interval '31 days'
        where list_id = $1 and email = $2`,
      [siteList!.id, email],
    );
    await pool.query(
      `update public.email_deliveries set created_at = now() - interval '31 days'
        where kind = 'list_confirmation' and recipient = $1`,
      [email],
    );
    await pool.query('select private.newsletter_lists_sweep(1000)');
    expect(await subscriber(email)).toBeNull();
    expect(await confirmationsQueued(email)).toBe(0);
  });

  it('sends no e-mail for an address that is already confirmed', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('settled');
    expect((await signupJson(email)).status).toBe(202);
    const link = confirmLinkOf(await confirmationTo(email));
    expect((await press('lists/confirm', tokenOf(link))).status).toBe(200);
    await pool.query(
      `update private.list_subscriber_tokens t set created_at = now() - interval '1 year'
         from public.list_subscribers s where s.id = t.subscriber_id and s.email = $1`,
      [email],
    );
    expect((await signupJson(email)).status).toBe(202);
    expect(await confirmationsQueued(email)).toBe(1);
    expect((await listMail(stack.mailWebUrl)).filter((m) => isTo(m, email))).toHaveLength(1);
  });
});
