// The local Realtime stand-in's limits, modelled on Supabase Realtime's (docs: "Realtime Limits"):
// frames too large to parse are refused before parsing, a socket holds at most 100 channels, joins
// and messages per socket are rate limited, broadcast payloads are capped, and a flooding client
// never delays another subscriber's events. Each refusal carries Supabase's reply text.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { testStack } from '../support/stack.ts';

const stack = testStack();
/** The delivery deadline the product promises for realtime events (as in realtime.test.ts). */
const DELIVERY_MS = 1000;

let db: pg.Client;
const clients: SupabaseClient[] = [];
const sockets: WebSocket[] = [];

function makeClient() {
  const client = createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; apps in browsers use the native one.
    realtime: { transport: WebSocket as never },
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

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

/** A raw Phoenix vsn 2.0.0 socket, to send what supabase-js never would. */
interface RawSocket {
  ws: WebSocket;
  frames: Frame[];
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<number>;
  join(topic: string, ref: string, config?: Record<string, unknown>): void;
  replies(ref: string): Frame[];
}

async function rawSocket(): Promise<RawSocket> {
  const url = `${stack.apiUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${stack.anonKey}&vsn=2.0.0`;
  const ws = new WebSocket(url);
  sockets.push(ws);
  const frames: Frame[] = [];
  ws.on('message', (data, isBinary) => {
    const buf = data as Buffer;
    if (!isBinary) frames.push(JSON.parse(buf.toString('utf8')) as Frame);
    // vsn 2.0.0 relays user broadcasts as binary kind 4: lengths of topic, event and metadata,
    // the encoding, then the three strings and the payload.
    else if (buf[0] === 4) {
      const [topicLen, eventLen, metaLen] = [buf[1], buf[2], buf[3]];
      const topic = buf.subarray(5, 5 + topicLen).toString('utf8');
      const event = buf.subarray(5 + topicLen, 5 + topicLen + eventLen).toString('utf8');
      const payload = JSON.parse(buf.subarray(5 + topicLen + eventLen + metaLen).toString('utf8'));
      frames.push([null, null, topic, 'broadcast', { event, payload }]);
    }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  // A refused frame may surface as a socket error too; the close code is what the tests read.
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  return {
    ws,
    frames,
    closed,
    join(topic, ref, config = {}) {
      const payload = {
        config: { broadcast: { self: false, ack: false }, presence: { key: '' }, ...config },
        access_token: stack.anonKey,
      };
      ws.send(JSON.stringify([ref, ref, `realtime:${topic}`, 'phx_join', payload]));
    },
    replies: (ref) => frames.filter((f) => f[3] === 'phx_reply' && f[1] === ref),
  };
}

const replyReason = (frame: Frame | undefined) =>
  ((frame?.[4]?.response ?? {}) as { reason?: string }).reason;

beforeAll(async () => {
  db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  await db.query(`
    drop table if exists public.rt_limits;
    create table public.rt_limits (
      id bigint generated always as identity primary key,
      body text,
      amount numeric default 1
    );
    grant select on public.rt_limits to anon, authenticated;
    alter publication supabase_realtime add table public.rt_limits;
  `);
});

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  while (clients.length) {
    const client = clients.pop()!;
    await client.removeAllChannels();
    client.realtime.disconnect();
  }
});

afterAll(async () => {
  await db?.query(`
    alter publication supabase_realtime drop table public.rt_limits;
    drop table if exists public.rt_limits;
  `);
  await db?.end();
});

/** Subscribes through supabase-js to INSERTs on rt_limits; resolves once the binding is live. */
async function subscribeToInserts() {
  const client = makeClient();
  const bodies: string[] = [];
  const systems: { extension: string; status: string }[] = [];
  const statuses: string[] = [];
  client
    .channel(`victim-${randomUUID()}`)
    .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_limits' }, (p) =>
      bodies.push(String((p.new as { body: string }).body)),
    )
    .on('system', {}, (s: { extension: string; status: string }) => systems.push(s))
    .subscribe((status) => statuses.push(status));
  await waitUntil(
    () => systems.some((s) => s.extension === 'postgres_changes' && s.status === 'ok'),
    5000,
    'the subscription',
  );
  return bodies;
}

describe('frame size', () => {
  it("refuses a 2.6 MB join frame before parsing it, and other subscribers' events keep arriving", async () => {
    const bodies = await subscribeToInserts();

    // 23 000 filtered bindings: about 2.6 MB of JSON in one join frame.
    const bindings = Array.from({ length: 23_000 }, (_, i) => ({
      event: '*',
      schema: 'public',
      table: 'rt_limits',
      filter: `body=eq.${randomUUID()}-${i}`,
    }));
    const flooders = await Promise.all([rawSocket(), rawSocket(), rawSocket()]);
    const frameBytes = Buffer.byteLength(
      JSON.stringify([
        '1',
        '1',
        'realtime:flood',
        'phx_join',
        { config: { postgres_changes: bindings } },
      ]),
    );
    expect(frameBytes).toBeGreaterThan(2_500_000);
    for (const flooder of flooders) flooder.join('flood', '1', { postgres_changes: bindings });
    // Wait until each flood frame is dealt with: refused (the socket closes) or, where it was
    // accepted, its bindings are live and cost every later change their evaluation.
    const outcomes = await Promise.all(
      flooders.map((flooder) =>
        Promise.race([
          flooder.closed.then((code) => `closed ${code}`),
          waitUntil(() => flooder.frames.some((f) => f[3] === 'system'), 40_000, 'the flood').then(
            () => 'subscribed',
          ),
        ]),
      ),
    );

    const body = `after-the-flood-${randomUUID()}`;
    await db.query('insert into public.rt_limits (body) values ($1)', [body]);
    await waitUntil(() => bodies.includes(body), DELIVERY_MS, 'the event after the flood');

    // WebSocket close 1009 "message too big", as Supabase's socket answers frames over its cap.
    expect(outcomes).toEqual(['closed 1009', 'closed 1009', 'closed 1009']);
    expect(flooders.flatMap((f) => f.frames)).toEqual([]);
  }, 60_000);
});

describe('a client at every limit', () => {
  it("never delays another subscriber's events, while it joins nor afterwards", async () => {
    const bodies = await subscribeToInserts();
    const heavy = await rawSocket();
    // 100 channels × 100 bindings × 20 values: what the limits still allow one connection, with
    // numeric values so that Postgres, not a shortcut, has to compare them.
    for (let c = 0; c < 100; c++) {
      const bindings = Array.from({ length: 100 }, () => ({
        event: '*',
        schema: 'public',
        table: 'rt_limits',
        filter: `amount=in.(${Array.from({ length: 20 }, () => (Math.random() * 1e9).toFixed(3)).join(',')})`,
      }));
      heavy.join(`heavy-${c}`, String(c), { postgres_changes: bindings });
    }
    const live = () => heavy.frames.filter((f) => f[3] === 'system' && f[4].status === 'ok').length;

    const insertAndWait = async (phase: string) => {
      const body = `${phase}-${randomUUID()}`;
      await db.query('insert into public.rt_limits (body) values ($1)', [body]);
      await waitUntil(() => bodies.includes(body), DELIVERY_MS, `the event ${phase}`);
    };
    await insertAndWait('while it joins');
    await waitUntil(() => live() === 100, 50_000, 'the heavy subscriptions');
    for (let i = 0; i < 3; i++) await insertAndWait('once it listens');
  }, 90_000);
});

describe('channels and bindings', () => {
  it('refuses the 101st channel on one connection with ChannelRateLimitReached', async () => {
    const client = makeClient();
    const outcomes: { status: string; message?: string }[] = [];
    for (let i = 0; i < 101; i++) {
      client.channel(`many-${i}-${randomUUID()}`).subscribe((status, err) => {
        if (status !== 'SUBSCRIBED' || !outcomes[i])
          outcomes[i] = { status, message: err?.message };
      });
    }
    await waitUntil(() => outcomes.filter(Boolean).length === 101, 10_000, '101 join replies');
    expect(outcomes.filter((o) => o.status === 'SUBSCRIBED')).toHaveLength(100);
    const refused = outcomes.filter((o) => o.status !== 'SUBSCRIBED');
    expect(refused).toEqual([
      { status: 'CHANNEL_ERROR', message: 'ChannelRateLimitReached: Too many channels' },
    ]);
  });

  it('lets a socket rejoin its channels without counting them twice', async () => {
    const socket = await rawSocket();
    for (let i = 0; i < 100; i++) socket.join(`same-${i}`, `a${i}`);
    for (let i = 0; i < 100; i++) socket.join(`same-${i}`, `b${i}`);
    await waitUntil(() => socket.replies('b99').length === 1, 5000, 'the rejoin replies');
    const statuses = Array.from({ length: 100 }, (_, i) => socket.replies(`b${i}`)[0][4].status);
    expect(new Set(statuses)).toEqual(new Set(['ok']));
  });

  it('refuses a join with more than 100 postgres_changes bindings, naming the limit', async () => {
    const socket = await rawSocket();
    const binding = (i: number) => ({
      event: 'INSERT',
      schema: 'public',
      table: 'rt_limits',
      filter: `id=eq.${i}`,
    });
    socket.join('bindings-ok', '1', {
      postgres_changes: Array.from({ length: 100 }, (_, i) => binding(i)),
    });
    socket.join('bindings-over', '2', {
      postgres_changes: Array.from({ length: 101 }, (_, i) => binding(i)),
    });
    await waitUntil(() => socket.replies('2').length === 1, 5000, 'the join replies');
    await waitUntil(() => socket.replies('1').length === 1, 5000, 'the join replies');
    expect(socket.replies('1')[0][4].status).toBe('ok');
    expect(socket.replies('2')[0][4].status).toBe('error');
    expect(replyReason(socket.replies('2')[0])).toBe(
      'TooManyBindings: a channel may carry at most 100 postgres_changes bindings',
    );
  });
});

describe('rates', () => {
  it('refuses joins beyond the join rate with ClientJoinRateLimitReached and disconnects', async () => {
    const socket = await rawSocket();
    // Rejoining one topic keeps the channel count at 1, so only the join rate can refuse.
    for (let i = 0; i < 600; i++) socket.join('churn', String(i));
    const code = await socket.closed;
    const refused = socket.frames.filter((f) => f[3] === 'phx_reply' && f[4].status === 'error');
    expect(refused.length).toBeGreaterThan(0);
    expect(replyReason(refused[0])).toBe('ClientJoinRateLimitReached: Too many joins per second');
    expect(code).toBe(1000);
    const accepted = socket.frames.filter((f) => f[3] === 'phx_reply' && f[4].status === 'ok');
    expect(accepted.length).toBeGreaterThanOrEqual(100);
  });

  it('shuts a flooding channel down with "Too many messages per second"', async () => {
    const socket = await rawSocket();
    socket.join('chatter', '1');
    await waitUntil(() => socket.replies('1').length === 1, 5000, 'the join reply');
    for (let i = 0; i < 600; i++) {
      socket.ws.send(
        JSON.stringify([
          '1',
          String(i + 2),
          'realtime:chatter',
          'broadcast',
          {
            type: 'broadcast',
            event: 'spam',
            payload: { i },
          },
        ]),
      );
    }
    await waitUntil(
      () => socket.frames.some((f) => f[3] === 'phx_close'),
      5000,
      'the channel to be closed',
    );
    const system = socket.frames.find((f) => f[3] === 'system');
    expect(system?.[4]).toEqual({
      extension: 'system',
      status: 'error',
      message: 'Too many messages per second',
      channel: 'chatter',
    });
  });
});

describe('broadcast payload size', () => {
  it('does not relay a broadcast over 256 KB and answers an acked one with payload_size_exceeded', async () => {
    const sender = await rawSocket();
    const listener = await rawSocket();
    sender.join('big', '1', { broadcast: { self: false, ack: true } });
    listener.join('big', '1');
    await waitUntil(
      () => sender.replies('1').length === 1 && listener.replies('1').length === 1,
      5000,
      'both joins',
    );
    const send = (ref: string, size: number) =>
      sender.ws.send(
        JSON.stringify([
          '1',
          ref,
          'realtime:big',
          'broadcast',
          {
            type: 'broadcast',
            event: 'blob',
            payload: { blob: 'x'.repeat(size) },
          },
        ]),
      );
    send('big', 300 * 1024);
    send('small', 10);
    await waitUntil(() => sender.replies('small').length === 1, 5000, 'the small ack');
    await waitUntil(() => listener.frames.some((f) => f[3] === 'broadcast'), 5000, 'the relay');
    expect(sender.replies('big')[0]?.[4]).toEqual({
      status: 'error',
      response: { reason: 'payload_size_exceeded' },
    });
    const relayed = listener.frames.filter((f) => f[3] === 'broadcast');
    expect(relayed).toHaveLength(1);
    expect(relayed[0][4]).toMatchObject({ event: 'blob', payload: { blob: 'x'.repeat(10) } });
  });
});

describe('concurrent connections', () => {
  it('refuses joins beyond 200 connected clients with ConnectionRateLimitReached', async () => {
    const reasons: (string | undefined)[] = [];
    for (let i = 0; i < 201; i++) {
      const socket = await rawSocket();
      socket.join(`crowd-${i}`, '1');
      await waitUntil(() => socket.replies('1').length === 1, 5000, `join ${i}`);
      const reply = socket.replies('1')[0];
      if (reply[4].status !== 'ok') {
        reasons.push(replyReason(reply));
        break;
      }
    }
    expect(reasons).toEqual(['ConnectionRateLimitReached: Too many connected users']);
  });
});
