// Row-level security and grants of analytics, as two real users and anon: through supabase-js each
// owner creates, reads, changes and deletes only her own sites (domains held to host names, at most
// 50 sites an account), anon reads and writes none; in SQL as each role, nobody but the service
// role may call analytics_collect(), and nobody but the definer functions reads the private events,
// salts, counters and rollups; analytics_stats() and analytics_visitors_now() answer the owner
// only (null to another user, refused to anon), and the live row reaches only its owner, read
// or through Realtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { anon, commitAsService, runAs, serviceRole, superuserPool, user } from '../support/db.ts';
import { listenToTable } from '../support/realtime.ts';
import { newClient, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;
let aliceSite: string;

const COLUMNS = 'id, user_id, name, domains, retention_days, created_at';

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  service = serviceClient();
  [alice, bob] = await Promise.all([signUp('Alice Analytics'), signUp('Bob Analytics')]);
  const { data, error } = await alice.client
    .from('analytics_sites')
    .insert({ name: 'Alice blog', domains: ['alice.example.test'] })
    .select('id')
    .single();
  if (error) throw error;
  aliceSite = data.id as string;
});

afterAll(async () => {
  await service.from('analytics_sites').delete().in('user_id', [alice?.id, bob?.id]);
  await pool.end();
});

describe('analytics_sites through supabase-js', () => {
  it("is created for the caller, with the site's domains as host names", async () => {
    const { data, error } = await bob.client
      .from('analytics_sites')
      .insert({
        name: 'Shop',
        domains: [' Shop.Example.TEST. ', 'shop.example.test', 'www2.example.test'],
      })
      .select(COLUMNS)
      .single();
    expect(error).toBeNull();
    expect(data).toMatchObject({
      user_id: bob.id,
      name: 'Shop',
      domains: ['shop.example.test', 'www2.example.test'],
      retention_days: 395,
    });
  });

  it("shows, changes and deletes only the owner's own sites", async () => {
    const { data: seen } = await bob.client
      .from('analytics_sites')
      .select('id')
      .eq('id', aliceSite);
    expect(seen).toEqual([]);
    const { data: changed } = await bob.client
      .from('analytics_sites')
      .update({ name: 'Taken' })
      .eq('id', aliceSite)
      .select('id');
    expect(changed).toEqual([]);
    const { data: deleted } = await bob.client
      .from('analytics_sites')
      .delete()
      .eq('id', aliceSite)
      .select('id');
    expect(deleted).toEqual([]);
    const { data: still } = await alice.client
      .from('analytics_sites')
      .select('name')
      .eq('id', aliceSite)
      .single();
    expect(still).toEqual({ name: 'Alice blog' });

    // A site cannot be made for someone else, nor handed over.
    const { error: forged } = await bob.client
      .from('analytics_sites')
      .insert({ user_id: alice.id, name: 'Forged', domains: ['forged.example.test'] });
    expect(forged?.code).toBe('42501');
    const { error: handOver } = await alice.client
      .from('analytics_sites')
      .update({ user_id: bob.id } as never)
      .eq('id', aliceSite);
    expect(handOver?.code).toBe('42501');

    const { data: renamed, error } = await alice.client
      .from('analytics_sites')
      .update({ name: 'Alice’s blog', retention_days: 90 })
      .eq('id', aliceSite)
      .select('name, retention_days');
    expect(error).toBeNull();
    expect(renamed).toEqual([{ name: 'Alice’s blog', retention_days: 90 }]);
  });

  it('shows anon nothing and lets it write nothing', async () => {
    const visitor = newClient();
    const { data, error } = await visitor.from('analytics_sites').select('id');
    expect(data ?? []).toEqual([]);
    expect(error?.code).toBe('42501');
    const { error: insertError } = await visitor
      .from('analytics_sites')
      .insert({ name: 'Anon', domains: ['anon.example.test'] });
    expect(insertError?.code).toBe('42501');
  });

  it('refuses domains that are no host names, and out-of-range names and retention', async () => {
    for (const domains of [
      ['https://alice.example.test'],
      ['alice.example.test:8080'],
      ['alice.example.test/blog'],
      ['a b.example.test'],
      [],
      Array.from({ length: 11 }, (_, i) => `s${i}.example.test`),
      [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.test`],
    ]) {
      const { error } = await alice.client.from('analytics_sites').insert({ name: 'Bad', domains });
      expect(error?.code, JSON.stringify(domains)).toBe('23514');
    }
    const { error: hostError } = await alice.client
      .from('analytics_sites')
      .insert({ name: 'Bad', domains: ['https://alice.example.test'] });
    expect(hostError?.message).toMatch(/host name such as example\.com/);
    const rows: { name: string; domains: string[]; retention_days?: number }[] = [
      { name: '', domains: ['ok.example.test'] },
      { name: 'x'.repeat(101), domains: ['ok.example.test'] },
      { name: 'Short', domains: ['ok.example.test'], retention_days: 29 },
      { name: 'Long', domains: ['ok.example.test'], retention_days: 1096 },
    ];
    for (const row of rows) {
      const { error } = await alice.client.from('analytics_sites').insert(row);
      expect(error?.code, JSON.stringify(row)).toBe('23514');
    }
  });

  it('allows at most 50 sites an account', async () => {
    const carol = await signUp('Carol Analytics');
    try {
      const { error: seedError } = await service.from('analytics_sites').insert(
        Array.from({ length: 49 }, (_, i) => ({
          user_id: carol.id,
          name: `Site ${i}`,
          domains: [`s${i}.example.test`],
        })),
      );
      expect(seedError).toBeNull();
      const { error: fiftieth } = await carol.client
        .from('analytics_sites')
        .insert({ name: 'Fiftieth', domains: ['s50.example.test'] });
      expect(fiftieth).toBeNull();
      const { error } = await carol.client
        .from('analytics_sites')
        .insert({ name: 'One too many', domains: ['s51.example.test'] });
      expect(error?.code).toBe('23514');
      expect(error?.message).toMatch(/at most 50 analytics sites/);
      expect(error?.hint).toBe('analytics_site_limit');
    } finally {
      await service.from('analytics_sites').delete().eq('user_id', carol.id);
    }
  });
});

describe('ingestion and the private tables', () => {
  const collect = `select public.analytics_collect(p_site_id => $1, p_host => 'alice.example.test',
      p_ip => '198.51.100.7', p_client_key => '198.51.100.7', p_user_agent => 'Mozilla/5.0 test',
      p_name => 'pageview', p_path => '/') as answer`;
  const PRIVATE = [
    'private.analytics_events',
    'private.analytics_salts',
    'private.analytics_rate_limits',
    'private.analytics_site_counts',
    'private.analytics_rollups',
    'private.analytics_rollup_marks',
  ];

  it('lets only the service role call analytics_collect()', async () => {
    for (const actor of [anon, user(alice.id), user(bob.id)]) {
      const outcome = await runAs(pool, actor, collect, [aliceSite]);
      expect(outcome.code, actor.role).toBe('42501');
    }
    const served = await runAs<{ answer: { status: string } }>(pool, serviceRole, collect, [
      aliceSite,
    ]);
    expect(served.rows[0]?.answer.status).toBe('accepted');

    // Through the Data API too: the owner is refused, the service role served.
    const { error } = await alice.client.rpc('analytics_collect', {
      p_site_id: aliceSite,
      p_host: 'alice.example.test',
      p_ip: '198.51.100.7',
      p_client_key: '198.51.100.7',
      p_user_agent: 'Mozilla/5.0 test',
      p_name: 'pageview',
      p_path: '/',
    });
    expect(error?.code).toBe('42501');
  });

  it('lets nobody but the definer functions read the events, salts and counters', async () => {
    for (const table of PRIVATE) {
      for (const actor of [anon, user(alice.id), serviceRole]) {
        const outcome = await runAs(pool, actor, `select * from ${table} limit 1`);
        expect(outcome.code, `${actor.role} ${table}`).toBe('42501');
      }
    }
    const { error } = await alice.client
      .schema('private' as 'public')
      .from('analytics_events')
      .select('*');
    expect(error).not.toBeNull();
  });
});

describe('stats, visitors now and the live row', () => {
  const today = new Date().toISOString().slice(0, 10);
  type Live = { site_id: string; user_id: string; visitors_now: number; updated_at: string };
  type Change = RealtimePostgresChangesPayload<Live>;

  /** An event for Alice's site, committed as the analytics function stores it. */
  const collect = (ip: string) =>
    commitAsService(
      pool,
      `select public.analytics_collect(p_site_id => $1, p_host => 'alice.example.test',
          p_ip => $2, p_client_key => $2, p_user_agent => 'Mozilla/5.0 test',
          p_name => 'pageview', p_path => '/') as answer`,
      [aliceSite, ip],
    );

  it('answers the stats and visitors now to the owner, null to another user, nothing to anon', async () => {
    await collect('198.51.100.20');
    const stats = 'select public.analytics_stats($1, $2, $2) as answer';
    const now = 'select public.analytics_visitors_now($1) as answer';
    const owner = await runAs<{ answer: { totals: { pageviews: number } } }>(
      pool,
      user(alice.id),
      stats,
      [aliceSite, today],
    );
    expect(owner.rows[0]?.answer.totals.pageviews).toBeGreaterThanOrEqual(1);
    const ownerNow = await runAs<{ answer: number }>(pool, user(alice.id), now, [aliceSite]);
    expect(ownerNow.rows[0]?.answer).toBeGreaterThanOrEqual(1);
    for (const [sql, params] of [
      [stats, [aliceSite, today]],
      [now, [aliceSite]],
    ] as const) {
      const other = await runAs<{ answer: unknown }>(pool, user(bob.id), sql, [...params]);
      expect(other.code).toBeUndefined();
      expect(other.rows[0]?.answer).toBeNull();
      // Anon and the service role have no grant: the dashboard's functions are for owners.
      for (const actor of [anon, serviceRole]) {
        const refused = await runAs(pool, actor, sql, [...params]);
        expect(refused.code, actor.role).toBe('42501');
      }
    }

    // Through the Data API, as the dashboard calls them.
    const { data, error } = await alice.client.rpc('analytics_stats', {
      p_site_id: aliceSite,
      p_from: today,
      p_to: today,
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ range: { from: today, to: today, bucket: 'hour' } });
    const { data: bobs } = await bob.client.rpc('analytics_visitors_now', { p_site_id: aliceSite });
    expect(bobs).toBeNull();
    const { error: anonError } = await newClient().rpc('analytics_stats', {
      p_site_id: aliceSite,
      p_from: today,
      p_to: today,
    });
    expect(anonError?.code).toBe('42501');
  });

  it('shows the live row to its owner only, and lets nobody write it', async () => {
    await collect('198.51.100.21');
    const { data: own } = await alice.client
      .from('analytics_live')
      .select('site_id, user_id, visitors_now')
      .eq('site_id', aliceSite);
    expect(own).toEqual([
      { site_id: aliceSite, user_id: alice.id, visitors_now: expect.any(Number) },
    ]);
    const { data: bobs } = await bob.client.from('analytics_live').select('site_id');
    expect(bobs).toEqual([]);
    const { data: anons, error: anonError } = await newClient()
      .from('analytics_live')
      .select('site_id');
    expect(anons ?? []).toEqual([]);
    expect(anonError?.code).toBe('42501');

    // The row is ingestion's: not even its owner writes it.
    const { error: updateError } = await alice.client
      .from('analytics_live')
      .update({ visitors_now: 1000 })
      .eq('site_id', aliceSite);
    expect(updateError?.code).toBe('42501');
    const { error: insertError } = await bob.client.from('analytics_live').insert({
      site_id: aliceSite,
      user_id: bob.id,
      visitors_now: 1,
      updated_at: new Date().toISOString(),
    });
    expect(insertError?.code).toBe('42501');
  });

  it("brings the live row's changes through Realtime to its owner and nobody else", async () => {
    const forAlice: Change[] = [];
    const forBob: Change[] = [];
    const forAnon: Change[] = [];
    const visitor = newClient();
    const channels = await Promise.all([
      listenToTable(
        alice.client,
        'live-alice',
        'analytics_live',
        `user_id=eq.${alice.id}`,
        forAlice,
      ),
      // Bob asks for Alice's rows by name; anon for every row.
      listenToTable(bob.client, 'live-bob', 'analytics_live', `user_id=eq.${alice.id}`, forBob),
      listenToTable(visitor, 'live-anon', 'analytics_live', undefined, forAnon),
    ]);
    try {
      // The row made 5 seconds old (an update, checked against RLS like any other): the next
      // event rewrites it at once.
      await collect('198.51.100.22');
      await pool.query(
        `update public.analytics_live set updated_at = now() - interval '1 minute'
          where site_id = $1`,
        [aliceSite],
      );
      await collect('198.51.100.23');
      const rewritten = (c: Change) =>
        c.eventType !== 'DELETE' && Date.parse(c.new.updated_at) > Date.now() - 30_000;
      const deadline = Date.now() + 5000;
      while (!forAlice.some(rewritten) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const change = forAlice.find(rewritten);
      expect(change?.new).toMatchObject({
        site_id: aliceSite,
        user_id: alice.id,
        visitors_now: expect.any(Number),
      });
      // The others' sockets are separate; give them a moment to flush anything sent to them.
      await new Promise((r) => setTimeout(r, 500));
      expect(forBob).toEqual([]);
      expect(forAnon).toEqual([]);
    } finally {
      await Promise.all([
        alice.client.removeChannel(channels[0]),
        bob.client.removeChannel(channels[1]),
        visitor.removeChannel(channels[2]),
      ]);
    }
  });
});
