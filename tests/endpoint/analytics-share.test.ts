// Public share links of analytics stats against the local stack's Postgres: the owner creates,
// reads, rotates and revokes a site's link; anyone holding it reads the same stats the owner does
// (analytics_shared_stats = analytics_stats for the same range and filters), the site's name and
// "visitors now"; another account can do nothing with the owner's site; a wrong, rotated or
// revoked token is refused with analytics_share_not_found; the range cap and the per-token minute
// budget refuse with their own hints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import {
  anon,
  createAuthUser,
  superuserPool,
  user,
  type Actor,
  type TestUser,
} from '../support/db.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let owner: TestUser;
let stranger: TestUser;
let site: string;

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

interface Outcome {
  rows: Record<string, unknown>[];
  code?: string;
  message?: string;
  hint?: string;
}

/**
 * One statement as `actor`, as PostgREST runs it (role and JWT claims set in a transaction),
 * committed unless told otherwise; `setup` runs first in the same transaction as the superuser.
 */
async function call(
  actor: Actor,
  sql: string,
  params: unknown[] = [],
  { commit = true, setup }: { commit?: boolean; setup?: (c: pg.PoolClient) => Promise<void> } = {},
): Promise<Outcome> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    if (setup) await setup(client);
    await client.query(`set local role ${actor.role}`);
    const claims =
      actor.role === 'authenticated'
        ? { sub: actor.userId, role: 'authenticated', aud: 'authenticated' }
        : { role: actor.role };
    await client.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify(claims),
    ]);
    try {
      const result = await client.query(sql, params);
      await client.query(commit ? 'commit' : 'rollback');
      return { rows: result.rows as Record<string, unknown>[] };
    } catch (err) {
      await client.query('rollback');
      const e = err as { code?: string; message?: string; hint?: string };
      return { rows: [], code: e.code, message: e.message, hint: e.hint };
    }
  } finally {
    client.release();
  }
}

async function value(actor: Actor, sql: string, params: unknown[] = []): Promise<unknown> {
  const outcome = await call(actor, sql, params);
  if (outcome.code) throw new Error(`${outcome.code}: ${outcome.message}`);
  return outcome.rows[0]!.v;
}

const createLink = (as: TestUser) =>
  value(user(as.id), 'select public.analytics_share_create($1) as v', [site]) as Promise<string>;
const sharedStats = (token: string, from: string, to: string, filters: object = {}) =>
  call(anon, 'select public.analytics_shared_stats($1, $2, $3, $4) as v', [
    token,
    from,
    to,
    JSON.stringify(filters),
  ]);
const ownerStats = (from: string, to: string, filters: object = {}) =>
  value(user(owner.id), 'select public.analytics_stats($1, $2, $3, $4) as v', [
    site,
    from,
    to,
    JSON.stringify(filters),
  ]);

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  owner = await createAuthUser(pool, 'Share Owner');
  stranger = await createAuthUser(pool, 'Share Stranger');
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.analytics_sites (user_id, name, domains)
     values ($1, 'Shared <b>site</b>', '{share.example.test}') returning id`,
    [owner.id],
  );
  site = rows[0]!.id;
  // A few days of visits, today's within the last minute and a half, for "visitors now": no earlier
  // than midnight (UTC, as `day()`), so that just after it they still fall on today.
  await pool.query(
    `insert into private.analytics_events (site_id, at, visitor, name, path, entry, country)
     select $1,
            now() - make_interval(days => d)
              - least(make_interval(secs => 30 + v * 10), now() - date_trunc('day', now(), 'UTC')),
            (d * 100 + v)::bigint,
            case when v = 3 then 'signup' else 'pageview' end,
            case when v % 2 = 0 then '/' else '/pricing' end, true,
            case when v % 3 = 0 then 'DE' else 'FR' end
       from generate_series(0, 5) d, generate_series(0, 4) v`,
    [site],
  );
});

afterAll(async () => {
  await pool.query('delete from auth.users where id = any($1)', [[owner.id, stranger.id]]);
  await pool.end();
});

describe('share links', () => {
  it('gives the owner a 43-character base64url token, stored once per site', async () => {
    expect(
      await value(user(owner.id), 'select public.analytics_share_get($1) as v', [site]),
    ).toBeNull();
    const token = await createLink(owner);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await value(user(owner.id), 'select public.analytics_share_get($1) as v', [site])).toBe(
      token,
    );
    const { rows } = await pool.query(
      'select count(*)::int as n from private.analytics_shares where site_id = $1',
      [site],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('lets anyone with the token read the same stats as the owner', async () => {
    const token = await createLink(owner);
    for (const [from, to, filters] of [
      [day(-6), day(0), {}],
      [day(0), day(0), {}],
      [day(-6), day(-1), { country: 'DE' }],
      [day(-29), day(0), { page: '/pricing' }],
    ] as const) {
      const shared = await sharedStats(token, from, to, filters);
      expect(shared.code, shared.message).toBeUndefined();
      const mine = await ownerStats(from, to, filters);
      expect(shared.rows[0]!.v).toEqual(mine);
      expect((mine as { totals: { pageviews: number } }).totals.pageviews).toBeGreaterThan(0);
    }
    const named = await call(anon, 'select public.analytics_shared_site($1) as v', [token]);
    expect(named.rows[0]!.v).toEqual({
      name: 'Shared <b>site</b>',
      domains: ['share.example.test'],
    });
    const now = await call(anon, 'select public.analytics_shared_visitors_now($1) as v', [token]);
    expect(now.rows[0]!.v).toBe(5);
  });

  it("lets no other account create, read or revoke the owner's link", async () => {
    const token = await createLink(owner);
    for (const sql of [
      'select public.analytics_share_create($1) as v',
      'select public.analytics_share_get($1) as v',
      'select public.analytics_share_revoke($1) as v',
    ]) {
      const outcome = await call(user(stranger.id), sql, [site]);
      expect(outcome, sql).toMatchObject({ code: 'PT404', hint: 'analytics_site_not_found' });
      // The same answer as a site that does not exist.
      const missing = await call(user(owner.id), sql, ['00000000-0000-4000-8000-000000000000']);
      expect(missing, sql).toMatchObject({ code: 'PT404', hint: 'analytics_site_not_found' });
      expect(missing.message).toBe(outcome.message);
    }
    // The link still works.
    expect((await sharedStats(token, day(0), day(0))).code).toBeUndefined();
    // Anonymous callers cannot reach the owner's functions, nor the table.
    for (const sql of [
      'select public.analytics_share_create($1) as v',
      'select public.analytics_share_get($1) as v',
      'select public.analytics_share_revoke($1) as v',
    ]) {
      expect((await call(anon, sql, [site])).code, sql).toBe('42501');
    }
    expect((await call(user(stranger.id), 'select * from private.analytics_shares')).code).toBe(
      '42501',
    );
  });

  it('refuses a wrong, a rotated and a revoked token', async () => {
    const old = await createLink(owner);
    const wrong = `${old.slice(0, 42)}${old.endsWith('A') ? 'B' : 'A'}`;
    const refusal = { code: 'PT404', hint: 'analytics_share_not_found' };
    for (const token of [wrong, '', 'x'.repeat(5000)]) {
      expect(await sharedStats(token, day(0), day(0))).toMatchObject(refusal);
      expect(
        await call(anon, 'select public.analytics_shared_site($1) as v', [token]),
      ).toMatchObject(refusal);
    }

    const rotated = await createLink(owner);
    expect(rotated).not.toBe(old);
    expect(await sharedStats(old, day(0), day(0))).toMatchObject(refusal);
    expect(
      await call(anon, 'select public.analytics_shared_visitors_now($1) as v', [old]),
    ).toMatchObject(refusal);
    expect((await sharedStats(rotated, day(0), day(0))).code).toBeUndefined();

    expect(
      await value(user(owner.id), 'select public.analytics_share_revoke($1) as v', [site]),
    ).toBe(true);
    expect(await sharedStats(rotated, day(0), day(0))).toMatchObject(refusal);
    expect(
      await call(anon, 'select public.analytics_shared_site($1) as v', [rotated]),
    ).toMatchObject(refusal);
    expect(
      await value(user(owner.id), 'select public.analytics_share_get($1) as v', [site]),
    ).toBeNull();
    expect(
      await value(user(owner.id), 'select public.analytics_share_revoke($1) as v', [site]),
    ).toBe(false);
  });

  it('caps a shared range at 366 days', async () => {
    const token = await createLink(owner);
    expect(await sharedStats(token, day(-366), day(0))).toMatchObject({
      code: '22023',
      hint: 'analytics_range',
      message: expect.stringMatching(/at most 366 days/),
    });
    expect((await sharedStats(token, day(-365), day(0))).code).toBeUndefined();
    // The owner's own view still reaches 400 days.
    expect(await ownerStats(day(-399), day(0))).not.toBeNull();
  });

  it('allows 60 stats calls a minute per token, then refuses clearly', async () => {
    const token = await createLink(owner);
    const other = await (async () => {
      const { rows } = await pool.query<{ id: string }>(
        `insert into public.analytics_sites (user_id, name, domains)
         values ($1, 'Other', '{other.example.test}') returning id`,
        [owner.id],
      );
      return value(user(owner.id), 'select public.analytics_share_create($1) as v', [
        rows[0]!.id,
      ]) as Promise<string>;
    })();
    // One transaction, so every call falls in the same minute whatever the clock does.
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local role anon');
      const ask = async (t: string) => {
        await client.query('savepoint s');
        try {
          await client.query('select public.analytics_shared_stats($1, $2, $2) as v', [t, day(0)]);
          await client.query('release savepoint s');
          return null;
        } catch (err) {
          await client.query('rollback to savepoint s');
          return err as { code?: string; hint?: string; message?: string };
        }
      };
      for (let i = 0; i < 60; i++) expect(await ask(token), `call ${i + 1}`).toBeNull();
      expect(await ask(token)).toMatchObject({
        code: 'PT429',
        hint: 'analytics_share_rate',
        message: expect.stringMatching(/too often/),
      });
      // Another token has its own budget.
      expect(await ask(other)).toBeNull();
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('goes with its site', async () => {
    const token = await createLink(owner);
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.analytics_sites (user_id, name, domains)
       values ($1, 'Doomed', '{doomed.example.test}') returning id`,
      [owner.id],
    );
    const doomed = rows[0]!.id;
    const doomedToken = (await value(
      user(owner.id),
      'select public.analytics_share_create($1) as v',
      [doomed],
    )) as string;
    await pool.query('delete from public.analytics_sites where id = $1', [doomed]);
    expect(await sharedStats(doomedToken, day(0), day(0))).toMatchObject({
      hint: 'analytics_share_not_found',
    });
    expect((await sharedStats(token, day(0), day(0))).code).toBeUndefined();
  });
});
