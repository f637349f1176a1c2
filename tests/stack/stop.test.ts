// Ctrl-C stops everything, also with clients connected: `npm run stack` and `npm start` run as a
// user runs them (a process group of their own, Ctrl-C sent to the whole group as a terminal
// does), with a dashboard's realtime subscription, a bare WebSocket and keep-alive HTTP
// connections open. The process exits within 5 s, every port it bound can be bound again, and no
// process is left behind. A second Ctrl-C forces the exit when a step hangs (Postgres' fast
// shutdown held up by a replication client that never confirms the end of WAL).
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { LogicalReplicationService, PgoutputPlugin } from 'pg-logical-replication';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../../local-stack/config.ts';
import { STOP_FAST_MS } from '../../local-stack/postgres/server.ts';
import { freePorts } from '../../local-stack/stack.ts';
import { portIsFree, processesUsing, runInGroup, type GroupProcess } from '../support/processes.ts';
import { Changes, subscribeAsDashboard } from '../support/realtime.ts';

/** What the issue asks of Ctrl-C with clients connected. */
const EXIT_WITHIN_MS = 5_000;
const HANG_SLOT = 'stop_test_never_confirms';
const PASSWORD = 'correct-horse-9';

let dataDir: string;
let ports: { api: number; db: number; mailWeb: number; smtp: number; site: number };
const running: GroupProcess[] = [];
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-stop-'));
  const [api, db, mailWeb, smtp, site] = await freePorts(5);
  ports = { api, db, mailWeb, smtp, site };
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  for (const p of running.splice(0)) p.kill();
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const stackEnv = () => ({
  STACK_DATA_DIR: dataDir,
  STACK_API_PORT: String(ports.api),
  STACK_DB_PORT: String(ports.db),
  STACK_MAIL_WEB_PORT: String(ports.mailWeb),
  STACK_SMTP_PORT: String(ports.smtp),
});
const stackPorts = () => [ports.api, ports.db, ports.mailWeb, ports.smtp];
const api = () => `http://127.0.0.1:${ports.api}`;

async function npmRunStack(): Promise<GroupProcess> {
  const p = runInGroup('npm', ['run', 'stack'], stackEnv());
  running.push(p);
  await p.waitFor(/Local stack ready/);
  return p;
}

const newClient = (key: string) =>
  createClient(api(), key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });

/** A signed-in dashboard tab's live subscription (postgres_changes on its forms and entries). */
async function dashboardSubscription(): Promise<SupabaseClient> {
  const email = `stop-${crypto.randomUUID()}@example.test`;
  const created = await newClient(SERVICE_ROLE_KEY).auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (created.error) throw created.error;
  const client = newClient(ANON_KEY);
  cleanups.push(() => client.realtime.disconnect());
  const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error) throw signedIn.error;
  await subscribeAsDashboard(client, created.data.user.id, new Changes());
  return client;
}

/**
 * What an open tab has loaded: the page, its entry module and a dependency Vite pre-bundles (which
 * waits for Vite's dependency scan and bundling to be done, as the tab's first load does).
 */
async function loadSiteAsATabDoes(site: string) {
  expect((await fetch(`${site}/`)).status).toBe(200);
  const entry = await fetch(`${site}/src/main.tsx`);
  expect(entry.status).toBe(200);
  const dep = /\/node_modules\/\.vite\/deps\/[^"'\s]+/.exec(await entry.text());
  expect(dep, 'main.tsx imports a pre-bundled dependency').not.toBeNull();
  expect((await fetch(`${site}${dep![0]}`)).status).toBe(200);
}

/** A bare realtime socket; `closed` resolves with the close code the server sends. */
async function realtimeSocket(): Promise<{ closed: Promise<number> }> {
  const ws = new WebSocket(
    `ws://127.0.0.1:${ports.api}/realtime/v1/websocket?apikey=${ANON_KEY}&vsn=1.0.0`,
  );
  cleanups.push(() => ws.terminate());
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { closed };
}

/** Resolves once the server (or anyone) has closed the socket. */
const whenClosed = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });

/** A keep-alive connection left open (idle) after one answered request. */
async function keepAliveConnection(url: string): Promise<{ closed: Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  cleanups.push(() => agent.destroy());
  const socket = await new Promise<Socket>((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(req.socket!));
    });
    req.once('error', reject);
  });
  expect(socket.destroyed).toBe(false);
  return { closed: whenClosed(socket) };
}

/** A request still being sent (its body never ends): the server must not wait for it. */
async function requestInFlight(url: string): Promise<{ closed: Promise<void> }> {
  const req = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
  });
  req.on('error', () => undefined);
  cleanups.push(() => req.destroy());
  req.write('{"name":');
  const socket = await new Promise<Socket>((resolve) => req.once('socket', resolve));
  await new Promise<void>((resolve) =>
    socket.connecting ? socket.once('connect', () => resolve()) : resolve(),
  );
  return { closed: whenClosed(socket) };
}

/** How the time from Ctrl-C to the exit was spent, as the output shows it. */
function timeline(p: GroupProcess, sent: number, exitAt: number): string {
  const since = (pattern: RegExp) => {
    const at = p.timeOf(pattern);
    return at === undefined ? '-' : `${Math.round(at - sent)} ms`;
  };
  return (
    `exited in ${Math.round(exitAt - sent)} ms (stopping printed at ${since(/stopping…/)}, ` +
    `"Stopped" at ${since(/Stopped in \d+ ms/)})` +
    // Steps that took a second or more are printed by the stack.
    p
      .output()
      .split('\n')
      .filter((line) => /stopped in \d{4,} ms|did not stop/.test(line))
      .map((line) => `\n  ${line}`)
      .join('')
  );
}

/**
 * The stop ran to its end (npm itself then ends as a terminal's Ctrl-C ends it, by SIGINT, after
 * waiting for its script; the script's own exit code does not show).
 */
function expectStoppedInOrder(p: GroupProcess) {
  expect(p.output()).toMatch(/Stopped in \d+ ms/);
  expect(p.output()).not.toMatch(/killing child processes/);
}

/** Every port free again, and no process of the stack left. */
async function expectAllReleased(portList: number[]) {
  for (const port of portList) expect(await portIsFree(port), `port ${port}`).toBe(true);
  expect(await processesUsing(dataDir)).toEqual([]);
}

/** A replication client that never confirms the end of WAL: Postgres' fast shutdown waits for it. */
async function replicationClientThatNeverConfirms(): Promise<void> {
  const dbUrl = `postgresql://postgres:postgres@127.0.0.1:${ports.db}/postgres`;
  const admin = new pg.Client(dbUrl);
  await admin.connect();
  await admin.query(
    `select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1`,
    [HANG_SLOT],
  );
  await admin.query(`select pg_create_logical_replication_slot($1, 'pgoutput')`, [HANG_SLOT]);
  const service = new LogicalReplicationService(
    { connectionString: dbUrl },
    { acknowledge: { auto: false, timeoutSeconds: 0 } },
  );
  service.on('error', () => undefined);
  const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: ['supabase_realtime'] });
  const started = new Promise<void>((resolve) => service.once('start', () => resolve()));
  void service.subscribe(plugin, HANG_SLOT).catch(() => undefined);
  await started;
  // Something for it to be sent and never confirm.
  await admin.query('insert into private.newsletter_subscribers (email) values ($1)', [
    `hang-${Date.now()}@example.test`,
  ]);
  await admin.end();
  cleanups.push(() => service.stop().catch(() => undefined));
}

describe('Ctrl-C with clients connected', { timeout: 120_000 }, () => {
  it('npm run stack: exits within 5 s, closes every client, frees every port', async () => {
    const stack = await npmRunStack();
    await dashboardSubscription();
    const socket = await realtimeSocket();
    // A Deno worker too, so that function processes are part of the stop.
    const fn = await fetch(`${api()}/functions/v1/forms/not-a-form-id`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    expect(fn.status).toBe(404);
    // Opened last: an idle keep-alive connection is otherwise ended by the server after 5 s.
    const upload = await requestInFlight(`${api()}/functions/v1/forms/not-a-form-id`);
    const gatewayKeepAlive = await keepAliveConnection(`${api()}/health`);
    const mailKeepAlive = await keepAliveConnection(`http://127.0.0.1:${ports.mailWeb}/email`);

    const sent = performance.now();
    stack.ctrlC();
    const exit = await stack.exited;
    const tookMs = exit.at - sent;
    console.log(`npm run stack, Ctrl-C with clients connected: ${timeline(stack, sent, exit.at)}`);

    expectStoppedInOrder(stack);
    expect(tookMs).toBeLessThan(EXIT_WITHIN_MS);
    // The realtime server said goodbye with a close frame, and the HTTP servers hung up.
    expect(await socket.closed).toBe(1001);
    await Promise.all([upload.closed, gatewayKeepAlive.closed, mailKeepAlive.closed]);
    await expectAllReleased(stackPorts());
  });

  it('npm start: the site and the stack exit within 5 s with clients connected', async () => {
    const start = runInGroup('npm', ['start'], { ...stackEnv(), SITE_PORT: String(ports.site) });
    running.push(start);
    await start.waitFor(/Site ready/);
    const site = `http://127.0.0.1:${ports.site}`;
    await loadSiteAsATabDoes(site);
    await dashboardSubscription();
    const socket = await realtimeSocket();
    // Vite's own WebSocket (hot reload), as an open tab holds it.
    const hmr = new WebSocket(`ws://127.0.0.1:${ports.site}/`, 'vite-hmr');
    cleanups.push(() => hmr.terminate());
    const hmrClosed = new Promise<void>((resolve) => hmr.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      hmr.once('open', () => resolve());
      hmr.once('error', reject);
    });
    const siteKeepAlive = await keepAliveConnection(`${site}/`);
    const gatewayKeepAlive = await keepAliveConnection(`${api()}/health`);

    const sent = performance.now();
    start.ctrlC();
    const exit = await start.exited;
    const tookMs = exit.at - sent;
    console.log(`npm start, Ctrl-C with clients connected: ${timeline(start, sent, exit.at)}`);

    expectStoppedInOrder(start);
    expect(tookMs).toBeLessThan(EXIT_WITHIN_MS);
    expect(await socket.closed).toBe(1001);
    await Promise.all([siteKeepAlive.closed, gatewayKeepAlive.closed, hmrClosed]);
    await expectAllReleased([...stackPorts(), ports.site]);
  });

  it('a second Ctrl-C forces the exit while a step hangs', async () => {
    const stack = await npmRunStack();
    await dashboardSubscription();
    await replicationClientThatNeverConfirms();

    const sent = performance.now();
    stack.ctrlC();
    await stack.waitFor(/stopping/);
    // Well before Postgres' own bound on its fast shutdown would end the wait.
    await new Promise((r) => setTimeout(r, 1_000));
    stack.ctrlC();
    const exit = await stack.exited;
    const tookMs = exit.at - sent;
    console.log(
      `npm run stack: second Ctrl-C 1 s into a hanging stop → exited ${Math.round(tookMs)} ms after the first`,
    );

    expect(stack.output()).toMatch(/received again: killing child processes/);
    expect(stack.output()).not.toMatch(/Stopped in/);
    expect(tookMs).toBeLessThan(STOP_FAST_MS);
    await expectAllReleased(stackPorts());
  });

  it('without a second Ctrl-C, a hanging step is cut short after its bound', async () => {
    const stack = await npmRunStack();
    await replicationClientThatNeverConfirms();

    const sent = performance.now();
    stack.ctrlC();
    const exit = await stack.exited;
    const tookMs = exit.at - sent;
    console.log(`npm run stack, Postgres' shutdown held up: ${timeline(stack, sent, exit.at)}`);

    expectStoppedInOrder(stack);
    expect(stack.output()).toMatch(/fast shutdown still waiting .*shutting down immediately/);
    expect(tookMs).toBeGreaterThanOrEqual(STOP_FAST_MS - 500);
    expect(tookMs).toBeLessThan(STOP_FAST_MS + 3_000);
    await expectAllReleased(stackPorts());
  });
});
