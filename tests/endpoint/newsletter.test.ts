// The newsletter sign-up through real HTTP on the local stack (gateway → Deno `newsletter`
// function → Postgres; the outbox → SMTP → mail catcher): one answer for every valid address,
// one address per request, a per-client limit no forged header escapes, a confirmation e-mail
// with working confirm and unsubscribe links, and no way around it through REST.
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { NEWSLETTER } from '../../supabase/functions/_shared/limits.ts';
import { paths } from '../../src/config/paths.ts';
import { superuserPool, uniqueEmail } from '../support/db.ts';
import { isTo, listMail, waitForMail, type CaughtMail } from '../support/mail.ts';
import { needsMail, needsSiteUrl } from '../support/target.ts';
import { rawRequest, until, type RawResponse } from './support.ts';

const stack = inject('stack');
const signupUrl = () => `${stack.apiUrl}/functions/v1/newsletter`;
let pool: pg.Pool;

const resetLimits = () => pool.query('delete from private.newsletter_rate_limits');

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // The first request boots the function's worker (and fetches its npm packages).
  const res = await rawRequest(signupUrl(), { method: 'OPTIONS' });
  expect(res.status).toBe(204);
}, 120_000);
afterAll(async () => {
  // Leave no spent budget behind for the next file (every request here comes from 127.0.0.1).
  await resetLimits();
  await pool.end();
});
beforeEach(async () => {
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
  const { rows } = await pool.query<{ status: string; confirmed_at: Date | null }>(
    'select status, confirmed_at from private.newsletter_subscribers where lower(email) = lower($1)',
    [email],
  );
  return rows[0] ?? null;
}

async function confirmationsQueued(email: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from public.email_deliveries
      where kind = 'newsletter_confirmation' and lower(recipient) = lower($1)`,
    [email],
  );
  return rows[0]!.n;
}

const confirmationTo = (email: string) =>
  waitForMail(stack.mailWebUrl, (m) => isTo(m, email), 20_000);

/** The confirm and unsubscribe links of a confirmation e-mail (from its text part). */
function linksOf(mail: CaughtMail) {
  const find = (action: string) => {
    const m = new RegExp(`https?://\\S+/newsletter/${action}\\?token=[\\w-]+`).exec(
      mail.text ?? '',
    );
    if (!m) throw new Error(`no ${action} link in: ${mail.text}`);
    return m[0];
  };
  return { confirm: find('confirm'), unsubscribe: find('unsubscribe') };
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const actionUrl = (action: 'confirm' | 'unsubscribe') =>
  `${stack.apiUrl}/functions/v1/newsletter/${action}`;

/** What the link's page does when its button is pressed: POST the token to the function. */
const press = (action: 'confirm' | 'unsubscribe', link: string) =>
  rawRequest(actionUrl(action), {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: tokenOf(link) }),
  });

describe('signing up', () => {
  it('answers new, pending and confirmed addresses identically, with no Content-Range', async () => {
    const fresh = uniqueEmail('fresh');
    const pending = uniqueEmail('pending');
    const confirmed = uniqueEmail('confirmed');
    expect((await signupJson(pending)).status).toBe(202);
    expect((await signupJson(confirmed)).status).toBe(202);
    await pool.query(
      `update private.newsletter_subscribers set status = 'confirmed', confirmed_at = now()
        where email = $1`,
      [confirmed],
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
    for (let i = 0; i < NEWSLETTER.ratePerMinute; i++) {
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
      'select email from private.newsletter_subscribers where lower(email) = lower($1)',
      [email],
    );
    expect(rows).toEqual([{ email: email.toLowerCase() }]);
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
      'select count(*)::int as n from private.newsletter_subscribers where email = any($1)',
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
    for (let i = 0; i < NEWSLETTER.ratePerMinute; i++) {
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
  it("links to the site's pages, whose buttons confirm once and unsubscribe", async (ctx) => {
    // The function's SITE_URL (supabase/config.toml's auth.site_url locally): the links' pages.
    const SITE_URL = needsSiteUrl(ctx);
    needsMail(ctx);
    const email = uniqueEmail('reader');
    expect((await signupJson(email)).status).toBe(202);
    const mail = await confirmationTo(email);
    expect(mail.subject).toBe('Please confirm your newsletter subscription');
    const links = linksOf(mail);
    expect(links.confirm.startsWith(`${SITE_URL}${paths.newsletterConfirm}?token=`)).toBe(true);
    expect(links.unsubscribe.startsWith(`${SITE_URL}${paths.newsletterUnsubscribe}?token=`)).toBe(
      true,
    );
    expect(mail.html).toContain(`href="${links.unsubscribe}"`);
    expect((await subscriber(email))?.status).toBe('pending');

    const confirmed = await press('confirm', links.confirm);
    expect(confirmed.status).toBe(200);
    expect(JSON.parse(confirmed.body)).toEqual({ ok: true, status: 'confirmed' });
    expect((await subscriber(email))?.status).toBe('confirmed');

    // Used once: a second press, and a token nobody was sent, get the same neutral answer.
    const again = visible(await press('confirm', links.confirm));
    const unknown = visible(
      await press('confirm', links.confirm.replace(/token=[\w-]+/, `token=${'A'.repeat(43)}`)),
    );
    expect(again.status).toBe(404);
    expect(JSON.parse(again.body)).toMatchObject({ ok: false, code: 'invalid_link' });
    expect(unknown).toEqual(again);
    expect((await subscriber(email))?.status).toBe('confirmed');

    const unsubscribed = await press('unsubscribe', links.unsubscribe);
    expect(JSON.parse(unsubscribed.body)).toEqual({ ok: true, status: 'unsubscribed' });
    expect((await subscriber(email))?.status).toBe('unsubscribed');
    // Harmless to repeat.
    expect((await press('unsubscribe', links.unsubscribe)).status).toBe(200);
  });

  it('changes nothing when a mail scanner fetches the links', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('scanned');
    expect((await signupJson(email)).status).toBe(202);
    const links = linksOf(await confirmationTo(email));
    // The e-mail's links are the site's pages (served statically); the function's own link URLs
    // only redirect there.
    for (const action of ['confirm', 'unsubscribe'] as const) {
      const link = action === 'confirm' ? links.confirm : links.unsubscribe;
      const res = await rawRequest(`${actionUrl(action)}?token=${tokenOf(link)}`, {
        method: 'GET',
      });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(link);
      const head = await rawRequest(`${actionUrl(action)}?token=${tokenOf(link)}`, {
        method: 'HEAD',
      });
      expect(head.status).toBe(405);
    }
    expect((await subscriber(email))?.status).toBe('pending');
  });

  it('takes an RFC 8058 one-click unsubscribe, token in the URL', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('one-click');
    expect((await signupJson(email)).status).toBe(202);
    const links = linksOf(await confirmationTo(email));
    const res = await rawRequest(
      `${actionUrl('unsubscribe')}?token=${tokenOf(links.unsubscribe)}`,
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      },
    );
    expect(res.status).toBe(200);
    expect((await subscriber(email))?.status).toBe('unsubscribed');
  });

  it('can be unsubscribed from before confirming, which voids its confirm link', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('changed-mind');
    expect((await signupJson(email)).status).toBe(202);
    const links = linksOf(await confirmationTo(email));
    expect((await press('unsubscribe', links.unsubscribe)).status).toBe(200);
    expect((await press('confirm', links.confirm)).status).toBe(404);
    expect((await subscriber(email))?.status).toBe('unsubscribed');
  });

  it('refuses an expired confirm link', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('late');
    expect((await signupJson(email)).status).toBe(202);
    const links = linksOf(await confirmationTo(email));
    await pool.query(
      `update private.newsletter_tokens t set expires_at = now() - interval '1 second'
         from private.newsletter_subscribers s
        where s.id = t.subscriber_id and s.email = $1 and t.purpose = 'confirm'`,
      [email],
    );
    expect((await press('confirm', links.confirm)).status).toBe(404);
    expect((await subscriber(email))?.status).toBe('pending');
  });

  it('stores only hashes of the links’ tokens', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('hashed');
    expect((await signupJson(email)).status).toBe(202);
    const links = linksOf(await confirmationTo(email));
    const tokens = [links.confirm, links.unsubscribe].map(tokenOf);
    const { rows } = await pool.query<{ token_hash: string }>(
      `select t.token_hash from private.newsletter_tokens t
         join private.newsletter_subscribers s on s.id = t.subscriber_id where s.email = $1`,
      [email],
    );
    expect(rows).toHaveLength(2);
    for (const { token_hash } of rows) {
      expect(token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(tokens).not.toContain(token_hash);
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

  it('forgets unconfirmed addresses, and the outbox copies of expired links', async (ctx) => {
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
              where kind = 'newsletter_confirmation' and recipient = $1`,
            [email],
          )
          .then((r) => r.rows.map((row) => row.status)),
      (statuses) => statuses.length === 1 && statuses[0] === 'sent',
    );
    const days = (n: number) => `${n} days`;
    await pool.query(
      `update private.newsletter_subscribers set last_confirmation_at = now() - $2::interval
        where email = $1`,
      [email, days(NEWSLETTER.forgetUnconfirmedAfterDays + 1)],
    );
    await pool.query(
      `update public.email_deliveries set created_at = now() - $2::interval
        where kind = 'newsletter_confirmation' and recipient = $1`,
      [email, days(NEWSLETTER.confirmLinkTtlHours / 24 + 1)],
    );
    // Any later sign-up tidies up.
    expect((await signupJson(uniqueEmail('next'))).status).toBe(202);
    expect(await subscriber(email)).toBeNull();
    expect(await confirmationsQueued(email)).toBe(0);
  });

  it('sends no e-mail for an address that is already confirmed', async (ctx) => {
    needsMail(ctx);
    const email = uniqueEmail('settled');
    expect((await signupJson(email)).status).toBe(202);
    const links = linksOf(await confirmationTo(email));
    expect((await press('confirm', links.confirm)).status).toBe(200);
    await pool.query(
      `update private.newsletter_subscribers set last_confirmation_at = now() - interval '1 year'
        where email = $1`,
      [email],
    );
    expect((await signupJson(email)).status).toBe(202);
    expect(await confirmationsQueued(email)).toBe(1);
    expect((await listMail(stack.mailWebUrl)).filter((m) => isTo(m, email))).toHaveLength(1);
  });
});
