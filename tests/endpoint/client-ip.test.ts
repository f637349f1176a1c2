// Which client a post is counted for, through real HTTP on the local stack (gateway → Deno
// function → Postgres): never an address the client wrote into X-Forwarded-For, whichever URL it
// posts to; the owner's `/api/forms` proxy names its clients only with the proxy secret; IPv6
// clients count by their /64 network. The per-client limit is LIMITS.ratePerMinute.
//
// No single setting of the former hop count passed both halves: one trusted hop counted every
// visitor behind a proxy as the proxy, two let a direct caller pick a fresh address per post.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { PROXY_SECRET_HEADER } from '../../supabase/functions/_shared/client-ip.ts';
import { superuserPool } from '../support/db.ts';
import { localOnly, needsProxySecret, target } from '../support/target.ts';
import {
  functionUrl,
  ORIGIN,
  publicUrl,
  rawRequest,
  resetRateLimits,
  seedForm,
  storedFor,
  urlencoded,
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
  // Each burst below must fall in one rate-limit minute (date_trunc('minute', now()) in the
  // database): start it with at least 20 s of the current minute left.
  const { rows } = await pool.query<{ s: number }>(
    `select extract(second from now())::float8 as s`,
  );
  if (rows[0]!.s > 40) await new Promise((r) => setTimeout(r, (60 - rows[0]!.s + 0.2) * 1000));
}, 30_000);

const post = (url: string, headers: Record<string, string>, localAddress?: string) =>
  rawRequest(url, {
    headers: {
      origin: ORIGIN,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: urlencoded({ message: 'Hello' }),
    localAddress,
  });

/** Sends `count` posts one after another; returns how many were accepted (the rest must be 429). */
async function acceptedOf(count: number, send: (i: number) => ReturnType<typeof post>) {
  let accepted = 0;
  for (let i = 0; i < count; i++) {
    const res = await send(i);
    expect([200, 429]).toContain(res.status);
    if (res.status === 200) accepted++;
  }
  return accepted;
}

/** How many different clients the database counted for a form this minute. */
async function clientsCounted(formId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from private.submission_rate_limits where form_id = $1`,
    [formId],
  );
  return rows[0]!.n;
}

const fake = (i: number) => `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;

describe('the function URL, called directly', () => {
  it('ignores X-Forwarded-For entries the client wrote: 30 fresh fake addresses buy nothing', async () => {
    const form = await seedForm(pool);
    const url = functionUrl(stack.apiUrl, form.formId);
    const accepted = await acceptedOf(30, (i) => post(url, { 'x-forwarded-for': fake(i) }));
    expect(accepted).toBe(LIMITS.ratePerMinute);
    expect(await clientsCounted(form.formId)).toBe(1);
    expect((await storedFor(pool, form.formId)).entries).toBe(LIMITS.ratePerMinute);
  });

  it('ignores them with a wrong proxy secret too', async () => {
    const form = await seedForm(pool);
    const url = functionUrl(stack.apiUrl, form.formId);
    const accepted = await acceptedOf(12, (i) =>
      post(url, {
        'x-forwarded-for': fake(i),
        // Locally LOCAL_FORMS_PROXY_SECRET; any wrong value serves where none is known.
        [PROXY_SECRET_HEADER]: `${target.proxySecret ?? 'no-proxy-secret-known'}?`,
      }),
    );
    expect(accepted).toBe(LIMITS.ratePerMinute);
    expect(await clientsCounted(form.formId)).toBe(1);
  });
});

describe("the owner's proxy (it appends its client and sends the proxy secret)", () => {
  // The test plays the proxy: X-Forwarded-For "<whatever the visitor sent>, <visitor>"; the
  // gateway then appends the proxy's own address, as Supabase's does.
  const viaProxy = (url: string, visitor: string, forged = '6.6.6.6') =>
    post(url, {
      'x-forwarded-for': `${forged}, ${visitor}`,
      [PROXY_SECRET_HEADER]: target.proxySecret!,
    });

  it('counts each visitor it names separately, whatever the visitors wrote themselves', async (ctx) => {
    needsProxySecret(ctx);
    const form = await seedForm(pool);
    const url = functionUrl(stack.apiUrl, form.formId);
    const visitors = ['203.0.113.10', '203.0.113.11', '203.0.113.12'];
    for (const visitor of visitors) {
      const accepted = await acceptedOf(LIMITS.ratePerMinute + 2, (i) =>
        viaProxy(url, visitor, fake(i)),
      );
      expect(accepted, visitor).toBe(LIMITS.ratePerMinute);
    }
    expect(await clientsCounted(form.formId)).toBe(visitors.length);
  });

  it('counts IPv6 visitors by their /64 network', async (ctx) => {
    needsProxySecret(ctx);
    const form = await seedForm(pool);
    const url = functionUrl(stack.apiUrl, form.formId);
    // Fresh addresses in one /64: one client.
    const sameNetwork = await acceptedOf(LIMITS.ratePerMinute + 3, (i) =>
      viaProxy(url, `2001:db8:aa:1:${(i + 1).toString(16)}::1`),
    );
    expect(sameNetwork).toBe(LIMITS.ratePerMinute);
    // The neighbouring /64 (also written IPv4-mapped for the IPv4 case below) is another client.
    expect((await viaProxy(url, '2001:DB8:AA:2::1')).status).toBe(200);
    expect((await viaProxy(url, '::ffff:203.0.113.40')).status).toBe(200);
    expect(await clientsCounted(form.formId)).toBe(3);
  });
});

describe('/api/forms on the local stack (the gateway plays the owner’s proxy)', () => {
  it('counts visitors by their own connection, never by what they wrote', async (ctx) => {
    localOnly(ctx, 'it posts through the local gateway’s /api/forms from several 127.x addresses');
    const form = await seedForm(pool);
    const url = publicUrl(stack.apiUrl, form.formId);
    // Two visitors on different addresses (any 127.x.y.z is this machine on Linux).
    for (const visitor of ['127.0.0.2', '127.0.0.3']) {
      const accepted = await acceptedOf(LIMITS.ratePerMinute + 3, (i) =>
        post(url, { 'x-forwarded-for': fake(i) }, visitor),
      );
      expect(accepted, visitor).toBe(LIMITS.ratePerMinute);
    }
    // A visitor who sends the proxy secret itself gains nothing: the proxy overwrites it.
    const forged = await acceptedOf(LIMITS.ratePerMinute + 3, (i) =>
      post(
        url,
        { 'x-forwarded-for': `${fake(i)}, ${fake(i + 100)}`, [PROXY_SECRET_HEADER]: 'guess' },
        '127.0.0.4',
      ),
    );
    expect(forged).toBe(LIMITS.ratePerMinute);
    expect(await clientsCounted(form.formId)).toBe(3);
  });
});
