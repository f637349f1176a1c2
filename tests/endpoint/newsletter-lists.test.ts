// Owners' lists through real HTTP on the local stack (gateway → Deno `newsletter` function →
// Postgres; the outbox → SMTP → mail catcher): a list's signup form posted from its own site
// brings the owner's confirmation e-mail, whose link confirms; another site, a filled honeypot and
// a client over its allowance store nothing; the signed one-click link unsubscribes on POST only,
// and a tampered one changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { LISTS } from '../../supabase/functions/_shared/limits.ts';
import {
  linkSecretFromEnv,
  listUnsubscribeUrl,
} from '../../supabase/functions/_shared/list-unsubscribe.ts';
import { createAuthUser, superuserPool, uniqueEmail } from '../support/db.ts';
import { isTo, waitForMail } from '../support/mail.ts';
import { localOnly, needsMail, needsSiteUrl } from '../support/target.ts';
import { rawRequest, urlencoded } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const functionsUrl = () => `${stack.apiUrl}/functions/v1`;
const SHOP = 'https://shop.example.test';
const OWNER_WORDS = 'Thanks for joining the Shop News list: one letter a month, nothing more.';
let pool: pg.Pool;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // The first request boots the function's worker (and fetches its npm packages).
  const res = await rawRequest(`${functionsUrl()}/newsletter/lists/confirm`, { method: 'OPTIONS' });
  expect(res.status).toBe(204);
}, 120_000);
afterAll(async () => {
  await pool.end();
});

/**
 * A list of a new owner: a client's allowance is counted per owner, so every test starts with a
 * full one whatever the others spent (all requests here come from 127.0.0.1).
 */
async function createList(name = 'Shop News'): Promise<{ id: string; owner: string }> {
  const owner = await createAuthUser(pool, 'Owner');
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.newsletter_lists (user_id, name, allowed_origin, confirm_message, from_name)
     values ($1, $2, $3, $4, 'Shop') returning id`,
    [owner.id, name, SHOP, OWNER_WORDS],
  );
  return { id: rows[0]!.id, owner: owner.id };
}

const signupUrl = (listId: string) => `${functionsUrl()}/newsletter/lists/${listId}`;

/** A browser's post of the list's HTML form from `origin`. */
const formPost = (listId: string, fields: Record<string, string>, origin = SHOP) =>
  rawRequest(signupUrl(listId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin,
      referer: `${origin}/join`,
      accept: 'text/html',
      'sec-fetch-mode': 'navigate',
    },
    body: urlencoded(fields),
  });

const fetchPost = (listId: string, body: unknown, origin = SHOP) =>
  rawRequest(signupUrl(listId), {
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(body),
  });

async function subscribersOf(listId: string) {
  const { rows } = await pool.query<{ email: string; name: string | null; status: string }>(
    'select email, name, status from public.list_subscribers where list_id = $1 order by email',
    [listId],
  );
  return rows;
}

async function confirmationsTo(email: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from public.email_deliveries
      where kind = 'list_confirmation' and lower(recipient) = lower($1)`,
    [email],
  );
  return rows[0]!.n;
}

describe('a list’s signup form', () => {
  it('mails the owner’s words and a link whose token confirms the subscriber', async (ctx) => {
    const SITE_URL = needsSiteUrl(ctx);
    needsMail(ctx);
    const list = await createList();
    const email = uniqueEmail('joiner');
    const res = await formPost(list.id, { email, name: 'Ada', _gotcha: '' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${SITE_URL}/newsletter/check-inbox`);
    expect(await subscribersOf(list.id)).toEqual([{ email, name: 'Ada', status: 'pending' }]);

    const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, email), 20_000);
    expect(mail.subject).toBe('Confirm your subscription to Shop News');
    expect(mail.text).toContain(OWNER_WORDS);
    const prefix = `${SITE_URL}/newsletter/confirm?list=1&token=`;
    const link = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\w-]{43}`).exec(
      mail.text ?? '',
    );
    expect(link, mail.text).not.toBeNull();
    const token = new URL(link![0]).searchParams.get('token')!;

    // Opening the link's function URL (as a scanner might) changes nothing.
    const get = await rawRequest(`${functionsUrl()}/newsletter/lists/confirm?token=${token}`, {
      method: 'GET',
    });
    expect(get.status).toBe(303);
    expect(get.headers.location).toBe(link![0]);
    expect((await subscribersOf(list.id))[0]!.status).toBe('pending');

    // What the site's page does when its button is pressed.
    const press = () =>
      rawRequest(`${functionsUrl()}/newsletter/lists/confirm`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
    const confirmed = await press();
    expect(confirmed.status).toBe(200);
    expect(JSON.parse(confirmed.body)).toEqual({ ok: true, listName: 'Shop News' });
    const { rows } = await pool.query<{ status: string; consent_at: Date | null }>(
      'select status, consent_at from public.list_subscribers where list_id = $1',
      [list.id],
    );
    expect(rows[0]!.status).toBe('confirmed');
    expect(rows[0]!.consent_at).not.toBeNull();
    // Spent: a second press is told the link is not valid.
    expect((await press()).status).toBe(404);
  });

  it('answers fetch with 202 and CORS for the page, and multipart posts alike', async () => {
    const list = await createList();
    const email = uniqueEmail('fetcher');
    const res = await fetchPost(list.id, { email });
    expect(res.status).toBe(202);
    expect(JSON.parse(res.body)).toEqual({ ok: true });
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    const boundary = '----listsBoundary';
    const second = uniqueEmail('multipart');
    const multipart = await rawRequest(signupUrl(list.id), {
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        origin: SHOP,
        accept: 'application/json',
      },
      body:
        `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\n${second}\r\n` +
        `--${boundary}--\r\n`,
    });
    expect(multipart.status).toBe(202);
    expect((await subscribersOf(list.id)).map((s) => s.email).sort()).toEqual(
      [email, second].sort(),
    );
  });

  it('refuses another site with 403 and stores nothing', async () => {
    const list = await createList();
    const email = uniqueEmail('foreign');
    const res = await fetchPost(list.id, { email }, 'https://evil.example.test');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'foreign_origin' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const html = await formPost(list.id, { email }, 'https://evil.example.test');
    expect(html.status).toBe(403);
    expect(await subscribersOf(list.id)).toEqual([]);
    expect(await confirmationsTo(email)).toBe(0);
  });

  it('answers a filled honeypot as a success and stores nothing', async (ctx) => {
    const SITE_URL = needsSiteUrl(ctx);
    const list = await createList();
    const email = uniqueEmail('bot');
    const res = await formPost(list.id, { email, _gotcha: 'https://spam.example' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${SITE_URL}/newsletter/check-inbox`);
    expect((await fetchPost(list.id, { email, _gotcha: 'x' })).status).toBe(202);
    expect(await subscribersOf(list.id)).toEqual([]);
    expect(await confirmationsTo(email)).toBe(0);
  });

  it('answers 404 for a list that does not exist and 422 for an invalid address', async () => {
    const missing = await fetchPost('00000000-0000-4000-8000-000000000000', {
      email: uniqueEmail('x'),
    });
    expect(missing.status).toBe(404);
    const list = await createList();
    const invalid = await fetchPost(list.id, { email: 'not-an-address' });
    expect(invalid.status).toBe(422);
    expect(JSON.parse(invalid.body)).toMatchObject({ code: 'invalid', field: 'email' });
  });

  it('throttles a client with 429 and Retry-After, whatever X-Forwarded-For it writes', async () => {
    const list = await createList();
    for (let i = 0; i < LISTS.perClientPerMinute; i++) {
      const res = await rawRequest(signupUrl(list.id), {
        headers: {
          'content-type': 'application/json',
          origin: SHOP,
          'x-forwarded-for': `203.0.113.${i}`,
        },
        body: JSON.stringify({ email: uniqueEmail('burst') }),
      });
      expect(res.status).toBe(202);
    }
    const email = uniqueEmail('throttled');
    const res = await fetchPost(list.id, { email });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await subscribersOf(list.id)).map((s) => s.email)).not.toContain(email);
  });
});

describe('one-click unsubscribe', () => {
  async function subscribedWithCampaign() {
    const list = await createList('Leaving');
    const email = uniqueEmail('reader');
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.list_subscribers
         (list_id, user_id, email, status, source, consent_at, consent_statement, confirmed_at)
       values ($1, $2, $3, 'confirmed', 'import', now(), 'Signed up at the shop counter.', now())
       returning id`,
      [list.id, list.owner, email],
    );
    const campaign = await pool.query<{ id: string }>(
      `insert into public.campaigns (user_id, list_id, subject, body_markdown)
       values ($1, $2, 'Hello', 'Body') returning id`,
      [list.owner, list.id],
    );
    return { subscriber: rows[0]!.id, campaign: campaign.rows[0]!.id };
  }

  const statusOf = async (subscriber: string) =>
    (
      await pool.query<{ status: string }>(
        'select status from public.list_subscribers where id = $1',
        [subscriber],
      )
    ).rows[0]!.status;
  const unsubscribedCount = async (campaign: string) =>
    (
      await pool.query<{ unsubscribed: number }>(
        'select unsubscribed from public.campaigns where id = $1',
        [campaign],
      )
    ).rows[0]!.unsubscribed;

  const oneClick = (url: string) =>
    rawRequest(url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });

  it('unsubscribes on the mail program’s POST to the signed link; GET and a tampered link change nothing', async (ctx) => {
    localOnly(ctx, 'signs links with the stack’s service-role key');
    const SITE_URL = needsSiteUrl(ctx);
    const { subscriber, campaign } = await subscribedWithCampaign();
    const secret = linkSecretFromEnv((name) =>
      name === 'SUPABASE_SERVICE_ROLE_KEY' ? stack.serviceRoleKey : undefined,
    );
    const url = await listUnsubscribeUrl(functionsUrl(), subscriber, campaign, secret);
    const signature = url.split('/').pop()!;

    const get = await rawRequest(url, { method: 'GET' });
    expect(get.status).toBe(303);
    expect(get.headers.location).toBe(
      `${SITE_URL}/newsletter/unsubscribe?u=${subscriber}&c=${campaign}&sig=${signature}`,
    );
    expect(await statusOf(subscriber)).toBe('confirmed');

    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const tampered of [
      url.replace(signature, flipped),
      url.replace(campaign, '-'),
      url.replace(signature, signature.slice(0, 40)),
    ]) {
      const res = await oneClick(tampered);
      expect([403, 404], tampered).toContain(res.status);
    }
    expect(await statusOf(subscriber)).toBe('confirmed');
    expect(await unsubscribedCount(campaign)).toBe(0);

    const res = await oneClick(url);
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toBe('You are unsubscribed.\n');
    expect(await statusOf(subscriber)).toBe('unsubscribed');
    expect(await unsubscribedCount(campaign)).toBe(1);
    // Harmless to repeat, and counted once.
    expect((await oneClick(url)).status).toBe(200);
    expect(await unsubscribedCount(campaign)).toBe(1);
  });
});
