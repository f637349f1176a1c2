// Conformance of the local Realtime stand-in, driven only through @supabase/supabase-js the way
// apps use it: postgres_changes events, filters, publication membership, RLS as the subscriber,
// heartbeats, token refresh and leave — over protocol vsn 2.0.0 (default) and 1.0.0 — and the
// clear refusals of what it does not serve (private channels, presence).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import ws from 'ws';
import { SignJWT } from 'jose';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { localOnly, needsJwtSecret } from '../support/target.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
type Row = Record<string, unknown>;
/** What realtime-js hands to postgres_changes callbacks (`new`/`old` are `{}` when absent). */
interface Change {
  schema: string;
  table: string;
  commit_timestamp: string;
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  new: Row;
  old: Row;
  errors: unknown;
}
type SystemMessage = { extension: string; status: string; message: string; channel: string };

/** How long a subscriber must stay silent before "receives nothing" is accepted. */
const SILENCE_MS = 1500;
/** The delivery deadline the product promises for realtime events. */
const DELIVERY_MS = 1000;

let db: pg.Client;
const clients: SupabaseClient[] = [];

async function mintJwt(claims: Record<string, unknown>, expiresInSeconds = 3600) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ aud: 'authenticated', iat: now, exp: now + expiresInSeconds, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

function userJwt(sub: string) {
  return mintJwt({ sub, role: 'authenticated', email: `${sub.slice(0, 8)}@example.com` });
}

function makeClient(
  options: {
    vsn?: '1.0.0' | '2.0.0';
    key?: string;
    heartbeat?: (status: string) => void;
    heartbeatMs?: number;
  } = {},
) {
  const client = createClient(stack.apiUrl, options.key ?? stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: {
      // Node 20 has no global WebSocket; apps in browsers use the native one.
      transport: ws as never,
      ...(options.vsn ? { vsn: options.vsn } : {}),
      ...(options.heartbeat ? { heartbeatCallback: options.heartbeat } : {}),
      ...(options.heartbeatMs ? { heartbeatIntervalMs: options.heartbeatMs } : {}),
    },
  });
  clients.push(client);
  return client;
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Spec = {
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  schema?: string;
  table?: string;
  filter?: string;
};

interface Subscription {
  channel: RealtimeChannel;
  /** Events per binding, in the order the bindings were given. */
  events: Change[][];
  systems: SystemMessage[];
  statuses: string[];
}

/** Opens a channel with the given bindings and waits for the join reply and the system message. */
async function subscribe(
  client: SupabaseClient,
  specs: Spec[],
  opts: { expectError?: boolean } = {},
) {
  const channel = client.channel(`rt-${randomUUID()}`);
  const sub: Subscription = { channel, events: specs.map(() => []), systems: [], statuses: [] };
  specs.forEach((spec, i) => {
    channel.on('postgres_changes', { schema: 'public', ...spec } as never, (payload: unknown) =>
      sub.events[i].push(payload as Change),
    );
  });
  channel.on('system', {}, (payload: SystemMessage) => sub.systems.push(payload));
  channel.subscribe((status) => sub.statuses.push(status));
  await waitUntil(() => sub.statuses.includes('SUBSCRIBED'), 5000, 'SUBSCRIBED');
  await waitUntil(
    () => sub.systems.some((s) => s.extension === 'postgres_changes'),
    5000,
    'the postgres_changes system message',
  );
  const status = sub.systems.find((s) => s.extension === 'postgres_changes')!.status;
  expect(status).toBe(opts.expectError ? 'error' : 'ok');
  return sub;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  await db.query(`
    drop table if exists public.rt_items, public.rt_things, public.rt_unpublished, public.rt_secret, public.rt_cols;

    create table public.rt_items (
      id uuid primary key default gen_random_uuid(),
      owner uuid,
      body text
    );
    alter table public.rt_items enable row level security;
    create policy "owner can select" on public.rt_items for select to authenticated
      using ((select auth.uid()) = owner);
    grant select on public.rt_items to authenticated;

    create table public.rt_things (
      id bigint generated always as identity primary key,
      name text,
      qty integer,
      price numeric,
      ratio double precision,
      active boolean,
      meta jsonb,
      tags text[],
      created_at timestamptz not null default now()
    );
    grant select on public.rt_things to anon, authenticated;

    create table public.rt_unpublished (id integer primary key, v text);
    grant select on public.rt_unpublished to anon, authenticated;

    create table public.rt_secret (id integer primary key, v text);
    grant select on public.rt_secret to authenticated;

    create table public.rt_cols (id integer primary key, visible text, hidden text);
    grant select (id, visible) on public.rt_cols to anon;

    alter publication supabase_realtime add table public.rt_items, public.rt_things, public.rt_secret, public.rt_cols;
  `);
});

afterEach(async () => {
  while (clients.length) {
    const client = clients.pop()!;
    await client.removeAllChannels();
    client.realtime.disconnect();
  }
});

afterAll(async () => {
  await db?.query(`
    alter publication supabase_realtime drop table public.rt_items, public.rt_things, public.rt_secret, public.rt_cols;
    drop table if exists public.rt_items, public.rt_things, public.rt_unpublished, public.rt_secret, public.rt_cols;
  `);
  await db?.end();
});

describe.each(['2.0.0', '1.0.0'] as const)('postgres_changes over protocol vsn %s', (vsn) => {
  it('speaks the requested protocol version', () => {
    const client = makeClient({ vsn });
    expect(client.realtime.vsn).toBe(vsn);
    expect(client.realtime.endpointURL()).toContain(`vsn=${vsn}`);
  });

  it('delivers INSERT, UPDATE and DELETE to a `*` binding with typed values', async () => {
    const sub = await subscribe(makeClient({ vsn }), [{ event: '*', table: 'rt_things' }]);
    const tag = `star-${vsn}-${randomUUID()}`;
    const { rows } = await db.query(
      `insert into public.rt_things (name, qty, price, ratio, active, meta, tags)
       values ($1, 3, 12.50, 0.25, true, '{"a": {"b": [1, 2]}}', '{x,y}') returning id, created_at`,
      [tag],
    );
    const id = Number(rows[0].id);
    await db.query('update public.rt_things set qty = 4 where id = $1', [id]);
    await db.query('delete from public.rt_things where id = $1', [id]);
    await waitUntil(() => sub.events[0].length >= 3, DELIVERY_MS * 3, 'three events');

    const [insert, update, del] = sub.events[0];
    expect(insert.eventType).toBe('INSERT');
    expect(insert.schema).toBe('public');
    expect(insert.table).toBe('rt_things');
    expect(insert.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(insert.new).toMatchObject({
      id,
      name: tag,
      qty: 3,
      price: 12.5,
      ratio: 0.25,
      active: true,
      meta: { a: { b: [1, 2] } },
      tags: ['x', 'y'],
    });
    expect(new Date(String(insert.new.created_at)).getTime()).toBe(
      new Date(rows[0].created_at).getTime(),
    );
    expect(insert.old).toEqual({});
    expect(insert.errors).toBeNull();

    expect(update.eventType).toBe('UPDATE');
    expect(update.new).toMatchObject({ id, qty: 4, name: tag });
    expect(update.old).toEqual({ id });

    expect(del.eventType).toBe('DELETE');
    expect(del.new).toEqual({});
    expect(del.old).toEqual({ id });
  });

  it('routes each event type only to the bindings that asked for it', async () => {
    const sub = await subscribe(makeClient({ vsn }), [
      { event: 'INSERT', table: 'rt_things' },
      { event: 'UPDATE', table: 'rt_things' },
      { event: 'DELETE', table: 'rt_things' },
    ]);
    const { rows } = await db.query(
      `insert into public.rt_things (name, qty) values ('typed', 1) returning id`,
    );
    const id = Number(rows[0].id);
    await db.query('update public.rt_things set qty = 2 where id = $1', [id]);
    await db.query('delete from public.rt_things where id = $1', [id]);
    await waitUntil(
      () => sub.events.every((e) => e.length >= 1),
      DELIVERY_MS * 3,
      'one event per binding',
    );
    await sleep(200);
    expect(sub.events.map((e) => e.map((c) => c.eventType))).toEqual([
      ['INSERT'],
      ['UPDATE'],
      ['DELETE'],
    ]);
  });
});

describe.each(['2.0.0', '1.0.0'] as const)('broadcast over protocol vsn %s', (vsn) => {
  it('relays a broadcast to the other subscribers of the topic, and to the sender when asked', async () => {
    const topic = `room-${randomUUID()}`;
    const received: { who: string; payload: unknown }[] = [];
    const join = async (who: string, self: boolean) => {
      const channel = makeClient({ vsn }).channel(topic, {
        config: { broadcast: { self, ack: true } },
      });
      channel.on('broadcast', { event: 'ping' }, (msg) =>
        received.push({ who, payload: msg.payload }),
      );
      await new Promise<void>((resolve) =>
        channel.subscribe((status) => status === 'SUBSCRIBED' && resolve()),
      );
      return channel;
    };
    const sender = await join('sender', true);
    await join('listener', false);
    expect(await sender.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok');
    await waitUntil(() => received.length >= 2, DELIVERY_MS, 'the broadcast on both sockets');
    expect(received.map((r) => r.who).sort()).toEqual(['listener', 'sender']);
    expect(received[0].payload).toEqual({ n: 1 });
  });
});

describe('filters', () => {
  it('applies eq, neq, lt, lte, gt, gte and in with the column type', async () => {
    const ops: [string, number[]][] = [
      ['qty=eq.3', [3]],
      ['qty=neq.3', [1, 2, 4, 10]],
      ['qty=lt.3', [1, 2]],
      ['qty=lte.3', [1, 2, 3]],
      ['qty=gt.3', [4, 10]],
      ['qty=gte.3', [3, 4, 10]],
      ['qty=in.(1,4,10)', [1, 4, 10]],
    ];
    const sub = await subscribe(
      makeClient(),
      ops.map(([filter]) => ({ event: 'INSERT' as const, table: 'rt_things', filter })),
    );
    // 10 > 3 numerically but '10' < '3' as text: a text comparison would fail this test.
    for (const qty of [1, 2, 3, 4, 10]) {
      await db.query(`insert into public.rt_things (name, qty) values ('filtered', $1)`, [qty]);
    }
    await waitUntil(
      () => ops.every(([, want], i) => sub.events[i].length >= want.length),
      DELIVERY_MS * 3,
      'all filtered events',
    );
    await sleep(300);
    ops.forEach(([filter, want], i) => {
      expect({ filter, got: sub.events[i].map((e) => e.new.qty) }).toEqual({ filter, got: want });
    });
  });

  it('filters text columns and delivers UPDATEs that match the new row', async () => {
    const name = `needle-${randomUUID()}`;
    const sub = await subscribe(makeClient(), [
      { event: '*', table: 'rt_things', filter: `name=eq.${name}` },
    ]);
    await db.query(`insert into public.rt_things (name, qty) values ('haystack', 1)`);
    const { rows } = await db.query(
      `insert into public.rt_things (name, qty) values ($1, 1) returning id`,
      [name],
    );
    await db.query(`update public.rt_things set qty = 7 where id = $1`, [rows[0].id]);
    await waitUntil(() => sub.events[0].length >= 2, DELIVERY_MS * 2, 'the matching events');
    await sleep(300);
    expect(sub.events[0].map((e) => [e.eventType, e.new.name, e.new.qty])).toEqual([
      ['INSERT', name, 1],
      ['UPDATE', name, 7],
    ]);
  });

  it('reports a malformed filter or unknown filter column as a postgres_changes error', async () => {
    const bad = await subscribe(
      makeClient(),
      [{ event: '*', table: 'rt_things', filter: 'qty=like.3' }],
      {
        expectError: true,
      },
    );
    expect(bad.systems[0].message).toMatch(/^Error parsing `filter` params/);
    const unknown = await subscribe(
      makeClient(),
      [{ event: '*', table: 'rt_things', filter: 'nope=eq.1' }],
      {
        expectError: true,
      },
    );
    expect(unknown.systems[0].message).toMatch(/^Error parsing `filter` params/);
  });
});

describe('publication membership', () => {
  it('answers a subscription to a table outside supabase_realtime with an error status', async () => {
    const sub = await subscribe(makeClient(), [{ event: '*', table: 'rt_unpublished' }], {
      expectError: true,
    });
    expect(sub.systems[0]).toMatchObject({ extension: 'postgres_changes', status: 'error' });
    expect(sub.systems[0].message).toMatch(/^Unable to subscribe to changes with given parameters/);
    expect(sub.systems[0].channel).toBe(sub.channel.topic.replace(/^realtime:/, ''));
  });

  it('never delivers changes of unpublished tables, even to a schema-wide binding', async () => {
    const sub = await subscribe(makeClient(), [{ event: 'INSERT', table: '*' }]);
    const n = Math.floor(Math.random() * 1e9);
    await db.query('insert into public.rt_unpublished (id, v) values ($1, $2)', [n, 'hidden']);
    await db.query(`insert into public.rt_things (name, qty) values ('published', $1)`, [n % 1000]);
    await waitUntil(
      () => sub.events[0].some((e) => e.table === 'rt_things' && e.new.name === 'published'),
      DELIVERY_MS,
      'the published insert',
    );
    await sleep(300);
    expect(sub.events[0].filter((e) => e.table === 'rt_unpublished')).toEqual([]);
  });
});

describe('row level security and grants', () => {
  const userA = randomUUID();
  const userB = randomUUID();
  // Every check here signs the tokens of users A and B itself.
  beforeEach((ctx) => {
    needsJwtSecret(ctx);
  });

  async function subscribeAs(token: string | null, spec: Spec) {
    const client = makeClient();
    if (token) await client.realtime.setAuth(token);
    return subscribe(client, [spec]);
  }

  it('delivers an INSERT only to the subscriber whose policy allows the row', async () => {
    const spec: Spec = { event: 'INSERT', table: 'rt_items' };
    const [a, b, anon] = await Promise.all([
      subscribeAs(await userJwt(userA), spec),
      subscribeAs(await userJwt(userB), spec),
      subscribeAs(null, spec),
    ]);
    const { rows } = await db.query(
      `insert into public.rt_items (owner, body) values ($1, 'for A') returning id`,
      [userA],
    );
    await waitUntil(() => a.events[0].length === 1, DELIVERY_MS, "user A's INSERT");
    expect(a.events[0][0].new).toEqual({ id: rows[0].id, owner: userA, body: 'for A' });
    await sleep(SILENCE_MS);
    expect(b.events[0]).toEqual([]);
    expect(anon.events[0]).toEqual([]);
  });

  it('checks UPDATEs as the subscriber and sends DELETEs with the primary key only', async () => {
    const spec: Spec = { event: '*', table: 'rt_items' };
    const [a, b, anon] = await Promise.all([
      subscribeAs(await userJwt(userA), spec),
      subscribeAs(await userJwt(userB), spec),
      subscribeAs(null, spec),
    ]);
    const { rows } = await db.query(
      `insert into public.rt_items (owner, body) values ($1, 'v1') returning id`,
      [userA],
    );
    const id = rows[0].id as string;
    // Like Supabase, visibility is checked against the row as it is when the change is processed,
    // so each step waits for the previous event (a row deleted meanwhile is visible to nobody).
    await waitUntil(() => a.events[0].length === 1, DELIVERY_MS, "user A's INSERT");
    await db.query(`update public.rt_items set body = 'v2' where id = $1`, [id]);
    await waitUntil(() => a.events[0].length === 2, DELIVERY_MS, "user A's UPDATE");
    await db.query(`delete from public.rt_items where id = $1`, [id]);
    await waitUntil(() => a.events[0].length === 3, DELIVERY_MS, "user A's DELETE");
    expect(a.events[0].map((e) => e.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(a.events[0][1].new).toMatchObject({ id, body: 'v2' });
    // Supabase applies no policy to DELETE: every role with SELECT gets it, reduced to the key.
    await waitUntil(() => b.events[0].length === 1, DELIVERY_MS, "user B's DELETE");
    expect(b.events[0][0].eventType).toBe('DELETE');
    expect(b.events[0][0].old).toEqual({ id });
    expect(a.events[0][2].old).toEqual({ id });
    await sleep(SILENCE_MS / 2);
    expect(b.events[0]).toHaveLength(1);
    // anon has no SELECT grant on rt_items at all.
    expect(anon.events[0]).toEqual([]);
  });

  it('gives a role without SELECT nothing, and only the columns a role may read', async () => {
    const anonSecret = await subscribeAs(null, { event: 'INSERT', table: 'rt_secret' });
    const userSecret = await subscribeAs(await userJwt(userA), {
      event: 'INSERT',
      table: 'rt_secret',
    });
    const anonCols = await subscribeAs(null, { event: 'INSERT', table: 'rt_cols' });
    const n = Math.floor(Math.random() * 1e9);
    await db.query(`insert into public.rt_secret (id, v) values ($1, 'secret')`, [n]);
    await db.query(
      `insert into public.rt_cols (id, visible, hidden) values ($1, 'shown', 'kept back')`,
      [n],
    );
    await waitUntil(() => userSecret.events[0].length === 1, DELIVERY_MS, 'the granted INSERT');
    await waitUntil(
      () => anonCols.events[0].length === 1,
      DELIVERY_MS,
      'the column-limited INSERT',
    );
    expect(anonCols.events[0][0].new).toEqual({ id: n, visible: 'shown' });
    await sleep(SILENCE_MS / 2);
    expect(anonSecret.events[0]).toEqual([]);
  });

  it('switches the subscriber when realtime.setAuth sends a new access token', async () => {
    const client = makeClient();
    await client.realtime.setAuth(await userJwt(userA));
    const sub = await subscribe(client, [{ event: 'INSERT', table: 'rt_items' }]);
    await db.query(`insert into public.rt_items (owner, body) values ($1, 'a1')`, [userA]);
    await waitUntil(() => sub.events[0].length === 1, DELIVERY_MS, "user A's INSERT");

    await client.realtime.setAuth(await userJwt(userB));
    // The server re-subscribes with the new claims and confirms it again.
    await waitUntil(
      () =>
        sub.systems.filter((s) => s.extension === 'postgres_changes' && s.status === 'ok').length >=
        2,
      2000,
      'the re-subscription',
    );
    await db.query(`insert into public.rt_items (owner, body) values ($1, 'a2')`, [userA]);
    await db.query(`insert into public.rt_items (owner, body) values ($1, 'b1')`, [userB]);
    await waitUntil(() => sub.events[0].length === 2, DELIVERY_MS, "user B's INSERT");
    await sleep(300);
    expect(sub.events[0].map((e) => e.new.body)).toEqual(['a1', 'b1']);
  });

  it('closes the channel with a system error when its token expires or a bad token arrives', async () => {
    const expiring = makeClient();
    await expiring.realtime.setAuth(await mintJwt({ sub: userA, role: 'authenticated' }, 2));
    const shortLived = await subscribe(expiring, [{ event: '*', table: 'rt_items' }]);
    await waitUntil(
      () => shortLived.statuses.includes('CLOSED'),
      4000,
      'the channel to close on expiry',
    );
    expect(shortLived.systems.at(-1)).toMatchObject({ extension: 'system', status: 'error' });
    expect(shortLived.systems.at(-1)?.message).toMatch(/^Token has expired/);

    const forged = makeClient();
    await forged.realtime.setAuth(await userJwt(userA));
    const sub = await subscribe(forged, [{ event: '*', table: 'rt_items' }]);
    const badToken = (await userJwt(userB)).replace(/\.[^.]+$/, '.invalidsignature');
    await forged.realtime.setAuth(badToken);
    await waitUntil(
      () => sub.statuses.includes('CLOSED'),
      2000,
      'the channel to close on a bad token',
    );
    expect(sub.systems.at(-1)).toMatchObject({ extension: 'system', status: 'error' });
  });

  it('refuses a join with an expired access token', async () => {
    const client = makeClient();
    await client.realtime.setAuth(await mintJwt({ sub: userA, role: 'authenticated' }, -60));
    const channel = client.channel(`rt-${randomUUID()}`);
    const outcome = await new Promise<{ status: string; err?: Error }>((resolve) =>
      channel
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'rt_items' },
          () => undefined,
        )
        .subscribe((status, err) => {
          if (status !== 'CLOSED') resolve({ status, err });
        }),
    );
    expect(outcome.status).toBe('CHANNEL_ERROR');
    expect(outcome.err?.message).toMatch(/Token has expired/);
  });
});

describe('connection lifecycle', () => {
  it('answers heartbeats so the socket stays up and keeps delivering', async () => {
    const statuses: string[] = [];
    const client = makeClient({ heartbeatMs: 150, heartbeat: (status) => statuses.push(status) });
    const sub = await subscribe(client, [{ event: 'INSERT', table: 'rt_things' }]);
    await waitUntil(
      () => statuses.filter((s) => s === 'ok').length >= 4,
      3000,
      'four heartbeat replies',
    );
    expect(statuses).not.toContain('timeout');
    expect(client.realtime.isConnected()).toBe(true);
    await db.query(`insert into public.rt_things (name, qty) values ('after heartbeats', 1)`);
    await waitUntil(() => sub.events[0].length >= 1, DELIVERY_MS, 'an INSERT after heartbeats');
  });

  it('leaves a channel with an ok reply on removeChannel and unsubscribe', async () => {
    const client = makeClient();
    const first = await subscribe(client, [{ event: '*', table: 'rt_things' }]);
    expect(await client.removeChannel(first.channel)).toBe('ok');
    expect(first.statuses).toContain('CLOSED');
    const second = await subscribe(client, [{ event: '*', table: 'rt_things' }]);
    expect(await second.channel.unsubscribe()).toBe('ok');
    expect(client.getChannels()).toHaveLength(0);
  });

  it('keeps the order of changes within and across transactions', async () => {
    const sub = await subscribe(makeClient(), [
      { event: 'INSERT', table: 'rt_things', filter: 'name=eq.ordered' },
    ]);
    await db.query(
      `insert into public.rt_things (name, qty) select 'ordered', g from generate_series(1, 10) g`,
    );
    for (let qty = 11; qty <= 15; qty++) {
      await db.query(`insert into public.rt_things (name, qty) values ('ordered', $1)`, [qty]);
    }
    await waitUntil(() => sub.events[0].length === 15, DELIVERY_MS * 3, 'fifteen ordered inserts');
    expect(sub.events[0].map((e) => e.new.qty)).toEqual(
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
  });

  it('reconnects its replication stream and delivers what was committed while it was down', async (ctx) => {
    localOnly(ctx, 'it ends the local Realtime server’s replication connection');
    const sub = await subscribe(makeClient(), [
      { event: 'INSERT', table: 'rt_things', filter: 'name=eq.across-reconnect' },
    ]);
    const { rows } = await db.query(
      `select pg_terminate_backend(active_pid) as terminated from pg_replication_slots
       where slot_name like 'tinyback_realtime_%' and active`,
    );
    expect(rows.map((r) => r.terminated)).toEqual([true]);
    await db.query(`insert into public.rt_things (name, qty) values ('across-reconnect', 1)`);
    await waitUntil(() => sub.events[0].length >= 1, 10_000, 'the INSERT after the reconnect');
    expect(sub.events[0].map((e) => e.new.qty)).toEqual([1]);
  });

  it('never subscribes with an expired apikey', async (ctx) => {
    needsJwtSecret(ctx);
    const expired = await mintJwt({ role: 'anon' }, -60);
    const client = makeClient({ key: expired });
    const statuses: string[] = [];
    client.channel(`rt-${randomUUID()}`).subscribe((status) => statuses.push(status), SILENCE_MS);
    await sleep(SILENCE_MS + 300);
    expect(statuses).not.toContain('SUBSCRIBED');
    expect(client.realtime.isConnected()).toBe(false);
  });
});

describe('features the local stack does not serve', () => {
  beforeEach((ctx) => {
    localOnly(ctx, 'Supabase Realtime serves these; only the local stand-in refuses them');
  });
  it('refuses to join a private channel (Realtime Authorization) with a clear reason', async () => {
    const client = makeClient();
    const outcome: { status?: string; error?: Error } = {};
    client
      .channel(`rt-${randomUUID()}`, { config: { private: true } })
      .subscribe((status, error) => Object.assign(outcome, { status, error }));
    await waitUntil(() => outcome.status !== undefined, 5000, 'the join reply');
    expect(outcome.status).toBe('CHANNEL_ERROR');
    expect(outcome.error?.message).toContain('PrivateChannelNotSupported');
  });

  it('answers presence track with an error instead of pretending to share it', async () => {
    const client = makeClient();
    const channel = client.channel(`rt-${randomUUID()}`);
    const statuses: string[] = [];
    channel.on('presence', { event: 'sync' }, () => {}).subscribe((s) => statuses.push(s));
    await waitUntil(() => statuses.includes('SUBSCRIBED'), 5000, 'SUBSCRIBED');
    expect(await channel.track({ online_at: new Date().toISOString() })).toBe('error');
  });
});
