// Analytics ingestion through real HTTP on the local stack (gateway → Deno `analytics` function with
// the real bowser → analytics_collect() in Postgres): what a page view keeps, visits (the entry
// flag), foreign hosts, bots, unknown sites, malformed events, the per-client and per-site limits,
// the daily salt's rotation, retention, and that no IP address or user agent is kept anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  commitAsService,
  committed,
  createAuthUser,
  superuserPool,
  sweepRetentionIn,
} from '../support/db.ts';
import { remote } from '../support/target.ts';
import { rawRequest } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const collectUrl = () => `${stack.apiUrl}/functions/v1/analytics/collect`;
let pool: pg.Pool;
let ownerId: string;
const sites: string[] = [];

/** Each test's visitors come from addresses of their own (any 127.x.y.z reaches the stack). */
const CLIENT = '127.61.7.23';
const OTHER_CLIENT = '127.61.7.24';
// Build numbers no other test sends, so the scan for stored copies finds only ours.
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E4242 Safari/604.1';
const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.4242 Safari/537.36';

async function createSite(domains: string[], retentionDays = 395): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.analytics_sites (user_id, name, domains, retention_days)
     values ($1, 'Blog', $2, $3) returning id`,
    [ownerId, domains, retentionDays],
  );
  sites.push(rows[0]!.id);
  return rows[0]!.id;
}

function send(
  event: Record<string, unknown> | string,
  opts: { ua?: string; from?: string; type?: string; method?: string } = {},
) {
  return rawRequest(collectUrl(), {
    method: opts.method ?? 'POST',
    headers: {
      'content-type': opts.type ?? 'text/plain;charset=UTF-8',
      'user-agent': opts.ua ?? WINDOWS_CHROME,
      origin: 'https://blog.example.test',
    },
    body: typeof event === 'string' ? event : JSON.stringify(event),
    localAddress: opts.from ?? CLIENT,
  });
}

interface StoredEvent {
  name: string;
  path: string;
  visitor: string;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  screen: string | null;
  entry: boolean;
  props: Record<string, string> | null;
}

async function eventsOf(siteId: string): Promise<StoredEvent[]> {
  const { rows } = await pool.query<StoredEvent>(
    `select name, path, visitor::text as visitor, referrer_host, utm_source, utm_medium,
            utm_campaign, country, browser, os, device, screen, entry, props
       from private.analytics_events where site_id = $1 order by at, visitor`,
    [siteId],
  );
  return rows;
}

const pageview = (siteId: string, extra: Record<string, unknown> = {}) => ({
  s: siteId,
  n: 'pageview',
  u: 'https://blog.example.test/',
  r: '',
  w: 1280,
  z: 'Europe/Berlin',
  ...extra,
});

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  ownerId = (await createAuthUser(pool, 'Analyst')).id;
  // The first request boots the function's worker (and fetches its npm packages).
  const res = await rawRequest(collectUrl(), { method: 'OPTIONS' });
  expect(res.status).toBe(204);
}, 120_000);

afterAll(async () => {
  // The owner's sites take their events and counters with them.
  await pool.query('delete from auth.users where id = $1', [ownerId]);
  await pool.end();
});

describe('an accepted page view', () => {
  it('keeps the path, UTM, referrer host, agent, screen class and country, and starts a visit', async () => {
    const site = await createSite(['blog.example.test']);
    const res = await send(
      pageview(site, {
        u: 'https://www.blog.example.test/posts/hello?utm_source=newsletter&utm_medium=email&utm_campaign=launch&token=s3cret#comments',
        r: 'https://news.ycombinator.com/item?id=42',
        w: 390,
        z: 'Europe/Paris',
      }),
      { ua: IPHONE_SAFARI },
    );
    expect(res.status).toBe(202);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('*');

    const [event] = await eventsOf(site);
    expect(event).toEqual({
      name: 'pageview',
      path: '/posts/hello',
      visitor: expect.stringMatching(/^-?\d+$/),
      referrer_host: 'news.ycombinator.com',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'launch',
      country: 'FR',
      browser: 'Safari',
      os: 'iOS',
      device: 'mobile',
      screen: 'mobile',
      entry: true,
      props: null,
    });
  });

  it('a second event of the visitor within 30 minutes is not an entry; another visitor is', async () => {
    const site = await createSite(['blog.example.test']);
    expect((await send(pageview(site))).status).toBe(202);
    // application/json is read as well as the tracker's text/plain.
    const custom = await send(
      pageview(site, {
        n: 'signup',
        u: 'https://blog.example.test/pricing',
        r: 'https://blog.example.test/',
        w: 1500,
        p: { plan: 'pro' },
      }),
      { type: 'application/json' },
    );
    expect(custom.status).toBe(202);
    expect((await send(pageview(site), { from: OTHER_CLIENT })).status).toBe(202);

    const [first, second, other] = await eventsOf(site).then((rows) => {
      const byClient = rows.filter((r) => r.visitor === rows[0]!.visitor);
      return [byClient[0]!, byClient[1]!, rows.find((r) => r.visitor !== rows[0]!.visitor)!];
    });
    expect(first).toMatchObject({
      name: 'pageview',
      entry: true,
      browser: 'Chrome',
      os: 'Windows',
    });
    expect(first.device).toBe('desktop');
    expect(first.screen).toBe('laptop');
    expect(first.country).toBe('DE');
    // The page's own site as referrer is no referrer.
    expect(second).toMatchObject({
      name: 'signup',
      path: '/pricing',
      entry: false,
      referrer_host: null,
      screen: 'desktop',
      props: { plan: 'pro' },
    });
    expect(other).toMatchObject({ entry: true });
    expect(other.visitor).not.toBe(first.visitor);
  });
});

describe('refusals', () => {
  it('refuses a page on another host with 403 and stores nothing', async () => {
    const site = await createSite(['blog.example.test']);
    for (const u of [
      'https://evil.example.test/',
      // Subdomains other than www. count only when listed.
      'https://shop.blog.example.test/',
      'https://blog.example.test.evil.example/',
    ]) {
      const res = await send(pageview(site, { u }));
      expect(res.status, u).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'foreign_host' });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    expect(await eventsOf(site)).toEqual([]);
  });

  it('answers bots 202 and stores nothing', async () => {
    const site = await createSite(['blog.example.test']);
    for (const ua of [
      'curl/8.5.0',
      'python-requests/2.32.3',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      '',
    ]) {
      const res = await send(pageview(site), { ua });
      expect(res.status, ua).toBe(202);
      expect(res.body).toBe('');
    }
    expect(await eventsOf(site)).toEqual([]);
  });

  it('answers an unknown site 404', async () => {
    const res = await send(pageview(randomUUID()));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'site_not_found' });
  });

  it('answers malformed events 400, large bodies 413, other methods 405 and preflights 204', async () => {
    const site = await createSite(['blog.example.test']);
    for (const body of [
      'not json',
      JSON.stringify({ ...pageview(site), u: '/relative' }),
      JSON.stringify({ ...pageview(site), n: '' }),
      JSON.stringify({ ...pageview(site), w: 'wide' }),
      JSON.stringify({ ...pageview(site), p: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' } }),
      JSON.stringify({ ...pageview(site), s: 'not-a-uuid' }),
    ]) {
      const res = await send(body);
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({
        code: 'invalid_event',
        error: expect.any(String),
      });
    }
    const big = await send({ ...pageview(site), p: { k: 'x'.repeat(2100) } });
    expect(big.status).toBe(413);
    const get = await rawRequest(collectUrl(), { method: 'GET' });
    expect(get.status).toBe(405);
    const preflight = await rawRequest(collectUrl(), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://blog.example.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(await eventsOf(site)).toEqual([]);
  });
});

describe('limits', () => {
  it('gives a client 60 events a minute per site, then 429 with Retry-After', async () => {
    const site = await createSite(['blog.example.test']);
    const from = '127.61.8.1';
    // Counted in the current minute: a run that would cross a minute boundary waits for the next.
    const seconds = new Date().getUTCSeconds();
    if (seconds > 45) await new Promise((r) => setTimeout(r, (61 - seconds) * 1000));
    for (let i = 0; i < 60; i++) {
      const res = await send(pageview(site, { u: `https://blog.example.test/${i}` }), { from });
      expect(res.status, `event ${i + 1}`).toBe(202);
    }
    const limited = await send(pageview(site), { from });
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body)).toMatchObject({ code: 'rate_limited' });
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // Another client of the same site is not held back.
    expect((await send(pageview(site), { from: '127.61.8.2' })).status).toBe(202);
    expect(await eventsOf(site)).toHaveLength(61);
  });

  it('caps a site over all its clients', async () => {
    const site = await createSite(['blog.example.test']);
    const collect = (client: string) =>
      commitAsService<{ answer: { status: string; retry_after?: number } }>(
        pool,
        `select public.analytics_collect(p_site_id => $1, p_host => 'blog.example.test',
            p_ip => $2, p_client_key => $2, p_user_agent => 'Mozilla/5.0 test', p_name => 'pageview',
            p_path => '/', p_site_per_minute => 2) as answer`,
        [site, client],
      );
    expect((await collect('192.0.2.1'))[0]!.answer.status).toBe('accepted');
    expect((await collect('192.0.2.2'))[0]!.answer.status).toBe('accepted');
    const third = (await collect('192.0.2.3'))[0]!.answer;
    expect(third.status).toBe('rate_limited');
    expect(third.retry_after).toBeGreaterThanOrEqual(1);
  });
});

describe('daily salts', () => {
  it('gives a returning visitor a new id the next day, and the old salt is gone', async () => {
    const site = await createSite(['blog.example.test']);
    const ua = WINDOWS_CHROME;
    // Yesterday: a salt of its own and this visitor's page view under it.
    const { rows } = await pool.query<{ visitor: string }>(
      `with salt as (
         insert into private.analytics_salts (day, salt)
         values ((now() at time zone 'UTC')::date - 1, extensions.gen_random_bytes(32))
         on conflict (day) do update set salt = excluded.salt
         returning salt)
       insert into private.analytics_events (site_id, at, visitor, name, path, entry)
       select $1, now() - interval '1 day', private.analytics_visitor(salt.salt, $1, $2, $3),
              'pageview', '/', true
         from salt
       returning visitor::text`,
      [site, CLIENT, ua],
    );
    const yesterday = rows[0]!.visitor;

    // The day turns: the rotation (the first event of a day, and the scheduled sweep) runs.
    const rotated = await pool.query<{ n: number }>('select private.analytics_rotate_salts() as n');
    expect(rotated.rows[0]!.n).toBeGreaterThanOrEqual(1);
    const left = await pool.query(
      `select day from private.analytics_salts where day < (now() at time zone 'UTC')::date`,
    );
    expect(left.rows).toEqual([]);

    // The same visitor (address and browser) comes back today.
    expect((await send(pageview(site), { ua, from: CLIENT })).status).toBe(202);
    const { rows: today } = await pool.query<{ visitor: string; expected: string }>(
      `select e.visitor::text as visitor,
              private.analytics_visitor(s.salt, $1, $2, $3)::text as expected
         from private.analytics_events e, private.analytics_salts s
        where e.site_id = $1 and e.at > now() - interval '1 hour'
          and s.day = (now() at time zone 'UTC')::date`,
      [site, CLIENT, ua],
    );
    expect(today).toHaveLength(1);
    expect(today[0]!.visitor).toBe(today[0]!.expected);
    expect(today[0]!.visitor).not.toBe(yesterday);
  });
});

describe('retention', () => {
  it("the scheduled sweep deletes events older than their site's retention", async () => {
    const site = await createSite(['blog.example.test'], 30);
    // The events and the sweep in one transaction: the stack's own scheduled sweep cannot take
    // the old event first, so the count is this sweep's.
    const swept = await committed(pool, async (client) => {
      await client.query(
        `insert into private.analytics_events (site_id, at, visitor, name, path, entry)
         values ($1, now() - interval '31 days', 1, 'pageview', '/old', true),
                ($1, now() - interval '29 days', 1, 'pageview', '/kept', true)`,
        [site],
      );
      return { answer: await sweepRetentionIn<{ analytics: { events: number } }>(client) };
    });
    expect(swept!.answer.analytics.events).toBeGreaterThanOrEqual(1);
    expect((await eventsOf(site)).map((e) => e.path)).toEqual(['/kept']);
  });
});

describe('no address is kept', () => {
  it('no column anywhere is an address or named after one, or after the user agent', async () => {
    const { rows } = await pool.query<{ col: string }>(
      `select table_schema || '.' || table_name || '.' || column_name || ' ' || data_type as col
         from information_schema.columns
        where table_schema not in ('pg_catalog', 'information_schema')
          and (data_type in ('inet', 'cidr')
               or column_name ~* '^(ip|ip_?address|client_ip|remote_addr|user_?agent)$')
          -- On a deployment, Supabase Auth's own tables keep the sign-in address of accounts
          -- (auth.sessions, auth.audit_log_entries): owners signing in, never visitors.
          and not ($1 and table_schema = 'auth')`,
      [remote],
    );
    expect(rows.map((r) => r.col)).toEqual([]);
  });

  it("no stored value holds the test client's address or user agent", async () => {
    const site = await createSite(['blog.example.test']);
    expect((await send(pageview(site), { from: CLIENT, ua: IPHONE_SAFARI })).status).toBe(202);
    const { rows: tables } = await pool.query<{ name: string }>(
      `select format('%I.%I', table_schema, table_name) as name
         from information_schema.tables
        where table_type = 'BASE TABLE'
          and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    const found: string[] = [];
    for (const { name } of tables) {
      // A row as text holds every column, arrays and jsonb included.
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from ${name} t
          where strpos(t::text, $1) > 0 or strpos(t::text, $2) > 0 or strpos(t::text, $3) > 0`,
        [CLIENT, '15E4242', '6778.4242'],
      );
      if (rows[0]!.n > 0) found.push(name);
    }
    expect(found).toEqual([]);
    // The same scan does find what is stored: the event's site id.
    expect(tables.length).toBeGreaterThan(10);
    const control = await pool.query<{ n: number }>(
      'select count(*)::int as n from private.analytics_events t where strpos(t::text, $1) > 0',
      [site],
    );
    expect(control.rows[0]!.n).toBe(1);
  });
});
