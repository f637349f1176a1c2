// The account-wide cap on stored analytics events, on the local stack: events past an account's
// daily cap are refused and not stored, over all its sites; deleting its sites and creating new
// ones does not reset the count; another account is unaffected; the endpoint answers 429
// account_limit at the deployment's cap (limits.ts); the owner reads today's count; the sweep
// deletes earlier days' counts by age.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { ANALYTICS } from '../../supabase/functions/_shared/limits.ts';
import { asAnon, asUser, commitAsService, createAuthUser, superuserPool } from '../support/db.ts';
import { rawRequest } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const collectUrl = () => `${stack.apiUrl}/functions/v1/analytics/collect`;
let pool: pg.Pool;
const users: string[] = [];

const HOST = 'cap.example.test';
const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.4343 Safari/537.36';

async function newUser(name: string): Promise<string> {
  const { id } = await createAuthUser(pool, name);
  users.push(id);
  return id;
}

async function createSite(userId: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.analytics_sites (user_id, name, domains) values ($1, 'Shop', $2) returning id`,
    [userId, [HOST]],
  );
  return rows[0]!.id;
}

interface Answer {
  status: string;
  retry_after?: number;
}

/** One event straight to analytics_collect(), as the function sends it, with a small cap. */
async function collect(siteId: string, client: string, accountPerDay: number): Promise<Answer> {
  const [row] = await commitAsService<{ answer: Answer }>(
    pool,
    `select public.analytics_collect(p_site_id => $1, p_host => $4, p_ip => $2, p_client_key => $2,
        p_user_agent => 'Mozilla/5.0 test', p_name => 'pageview', p_path => '/',
        p_account_per_day => $3) as answer`,
    [siteId, client, accountPerDay, HOST],
  );
  return row!.answer;
}

async function storedEvents(userId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from private.analytics_events e
       join public.analytics_sites s on s.id = e.site_id where s.user_id = $1`,
    [userId],
  );
  return rows[0]!.n;
}

async function today(userId: string): Promise<{ events: number; limit: number | null }> {
  const outcome = await asUser<{ answer: { events: number; limit: number | null } }>(
    pool,
    userId,
    'select public.analytics_account_today() as answer',
  );
  expect(outcome.code).toBeUndefined();
  return outcome.rows[0]!.answer;
}

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // The first request boots the function's worker (and fetches its npm packages).
  const res = await rawRequest(collectUrl(), { method: 'OPTIONS' });
  expect(res.status).toBe(204);
}, 120_000);

afterAll(async () => {
  await pool.query('delete from auth.users where id = any($1)', [users]);
  await pool.query('delete from private.analytics_account_days where user_id = any($1)', [users]);
  await pool.end();
});

describe("an account's daily cap", () => {
  it('counts stored events over all its sites and refuses the rest, which are not stored', async () => {
    const owner = await newUser('Capped');
    const first = await createSite(owner);
    const second = await createSite(owner);
    // Different clients and sites: the per-client and per-site limits are far away.
    expect((await collect(first, '192.0.2.11', 3)).status).toBe('accepted');
    expect((await collect(second, '192.0.2.12', 3)).status).toBe('accepted');
    expect((await collect(first, '192.0.2.13', 3)).status).toBe('accepted');
    const refused = await collect(second, '192.0.2.14', 3);
    expect(refused.status).toBe('account_limit');
    // Until the next midnight UTC, at most a day.
    const untilMidnight = Math.ceil(
      (Date.UTC(
        new Date().getUTCFullYear(),
        new Date().getUTCMonth(),
        new Date().getUTCDate() + 1,
      ) -
        Date.now()) /
        1000,
    );
    expect(refused.retry_after).toBeGreaterThanOrEqual(1);
    expect(Math.abs(refused.retry_after! - untilMidnight)).toBeLessThanOrEqual(5);
    expect((await collect(first, '192.0.2.15', 3)).status).toBe('account_limit');
    expect(await storedEvents(owner)).toBe(3);
    expect(await today(owner)).toEqual({ events: 3, limit: 3 });
  });

  it('is not reset by deleting the sites and creating a new one', async () => {
    const owner = await newUser('Recreator');
    const site = await createSite(owner);
    expect((await collect(site, '192.0.2.21', 2)).status).toBe('accepted');
    expect((await collect(site, '192.0.2.22', 2)).status).toBe('accepted');
    expect((await collect(site, '192.0.2.23', 2)).status).toBe('account_limit');

    await pool.query('delete from public.analytics_sites where user_id = $1', [owner]);
    const again = await createSite(owner);
    expect((await collect(again, '192.0.2.24', 2)).status).toBe('account_limit');
    expect(await storedEvents(owner)).toBe(0);
    expect(await today(owner)).toEqual({ events: 2, limit: 2 });
  });

  it('leaves another account alone', async () => {
    const full = await newUser('Full');
    const other = await newUser('Other');
    const fullSite = await createSite(full);
    const otherSite = await createSite(other);
    expect((await collect(fullSite, '192.0.2.31', 1)).status).toBe('accepted');
    expect((await collect(fullSite, '192.0.2.32', 1)).status).toBe('account_limit');
    expect((await collect(otherSite, '192.0.2.33', 1)).status).toBe('accepted');
    expect(await storedEvents(other)).toBe(1);
    // Each owner reads only their own count.
    expect(await today(other)).toEqual({ events: 1, limit: 1 });
    const stranger = await newUser('Stranger');
    expect(await today(stranger)).toEqual({ events: 0, limit: null });
  });

  it('refuses an event at the deployment cap through the endpoint with 429 account_limit', async () => {
    const owner = await newUser('Busy');
    const site = await createSite(owner);
    // The count as if today's earlier events had been stored: one more fits.
    await pool.query(
      `insert into private.analytics_account_days (user_id, day, events, day_limit)
       values ($1, (now() at time zone 'UTC')::date, $2, $3)`,
      [owner, ANALYTICS.accountEventsPerDay - 1, ANALYTICS.accountEventsPerDay],
    );
    const send = (path: string) =>
      rawRequest(collectUrl(), {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': WINDOWS_CHROME },
        body: JSON.stringify({ s: site, n: 'pageview', u: `https://${HOST}${path}`, w: 1280 }),
        localAddress: '127.61.9.1',
      });
    expect((await send('/last')).status).toBe(202);
    const refused = await send('/over');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'account_limit' });
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(24 * 60 * 60);
    const { rows } = await pool.query<{ path: string }>(
      'select path from private.analytics_events where site_id = $1',
      [site],
    );
    expect(rows.map((r) => r.path)).toEqual(['/last']);
    expect(await today(owner)).toEqual({
      events: ANALYTICS.accountEventsPerDay,
      limit: ANALYTICS.accountEventsPerDay,
    });
  });
});

describe('who may call', () => {
  it('lets no client call analytics_collect(), and no visitor read a count', async () => {
    const owner = await newUser('Caller');
    const site = await createSite(owner);
    const collectSql = `select public.analytics_collect(p_site_id => $1, p_host => $2, p_ip => '192.0.2.41',
        p_client_key => '192.0.2.41', p_user_agent => 'x', p_name => 'pageview', p_path => '/',
        p_account_per_day => 1000000000)`;
    expect((await asAnon(pool, collectSql, [site, HOST])).code).toBe('42501');
    expect((await asUser(pool, owner, collectSql, [site, HOST])).code).toBe('42501');
    expect((await asAnon(pool, 'select public.analytics_account_today()')).code).toBe('42501');
  });
});

describe('the sweep', () => {
  it("deletes earlier days' counts by age and keeps today's", async () => {
    const owner = await newUser('Swept');
    await pool.query(
      `insert into private.analytics_account_days (user_id, day, events, day_limit)
       values ($1, (now() at time zone 'UTC')::date - 1, 5, 5),
              ($1, (now() at time zone 'UTC')::date, 2, 5)`,
      [owner],
    );
    await commitAsService(pool, 'select public.sweep_retention()', []);
    const { rows } = await pool.query<{ events: number }>(
      'select events from private.analytics_account_days where user_id = $1 order by day',
      [owner],
    );
    expect(rows.map((r) => r.events)).toEqual([2]);
  });
});
