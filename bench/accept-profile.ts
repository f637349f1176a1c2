// Profile (not a test): what one call of public.accept_post() costs in Postgres, statement by
// statement, and how much WAL it writes.
//
// Starts a throwaway embedded Postgres in a temporary folder with pg_stat_statements (track = all,
// so the statements inside functions and triggers are counted too) and track_functions = all,
// applies supabase/migrations, creates one owner (its own confirmed e-mail as the form's target,
// so every post queues a notification, as in production) and one form, then calls accept_post N
// times through BENCH_CONNECTIONS `pg` connections (1: one post after another) as the service
// role, as the form endpoint does: an idempotency key per post, two custom fields with their
// order, a notification, BENCH_CLIENTS visitors in turn. The caps are lifted (as
// FORMS_RATE_LIMITS=off does) so that every post is accepted; the counters behind them are still
// taken and written. Prints:
//   - the call's time (round trip measured by the client, and its execution time in Postgres),
//     and posts per second;
//   - WAL records and bytes per post (pg_stat_wal and the insert position, autovacuum off);
//   - per statement (nested ones included): calls, mean time and WAL per post;
//   - per function and trigger: calls and own time per post.
//
//   npm run bench:accept           (BENCH_POSTS=2000, BENCH_CLIENTS=256, BENCH_WARMUP=300,
//                                   BENCH_CONNECTIONS=1; BENCH_SUPABASE_DIR=<other
//                                   checkout>/supabase profiles that version's migrations)
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres } from '../local-stack/postgres/server.ts';
import { applyMigrations, bootstrap } from '../local-stack/postgres/migrate.ts';
import { freePorts } from '../local-stack/stack.ts';
import { machineSummary } from './report.ts';

const POSTS = Number(process.env.BENCH_POSTS ?? 2000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 256);
const WARM_UP = Number(process.env.BENCH_WARMUP ?? 300);
/** Connections posting at once (each one post after another); 1 profiles a post alone. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
/** The forms function's value for a lifted cap (supabase/functions/forms/settings.ts). */
const LIFTED = 1_000_000_000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Another checkout's supabase/ folder (its migrations), to profile a version before a change. */
const SUPABASE_DIR = process.env.BENCH_SUPABASE_DIR ?? path.join(ROOT, 'supabase');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-accept-profile-'));
const [port] = await freePorts(1);
const server = await startPostgres({ dataDir, port, reset: true });
const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
let pool = new pg.Pool({ connectionString: url, max: 1 });
pool.on('error', () => undefined);

try {
  for (const setting of [
    `shared_preload_libraries = 'pg_stat_statements'`,
    `pg_stat_statements.track = 'all'`,
    `pg_stat_statements.track_utility = off`,
    `track_functions = 'all'`,
    // Background vacuum would write WAL of its own into the per-post figures.
    `autovacuum = off`,
  ])
    await pool.query(`alter system set ${setting}`);
  await pool.end();
  await server.halt();
  await server.resume();
  pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);

  await bootstrap(pool);
  await applyMigrations(pool, SUPABASE_DIR);
  await pool.query('create extension if not exists pg_stat_statements with schema extensions');

  const ownerId = randomUUID();
  const ownerEmail = `owner-${ownerId.slice(0, 8)}@example.test`;
  await pool.query(
    `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at,
                             raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
             now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
    [ownerId, ownerEmail],
  );
  await pool.query(`select public.set_account_plan($1, 'unlimited')`, [ownerId]);
  const {
    rows: [form],
  } = await pool.query<{ id: string; notify_email: boolean; target_verified: boolean }>(
    `insert into public.forms (user_id, name, target_email, allowed_origin)
     values ($1, 'Contact', $2, 'https://site.example.test')
     returning id, notify_email, target_verified`,
    [ownerId, ownerEmail],
  );
  if (!form.notify_email || !form.target_verified) throw new Error('form would not e-mail');
  const {
    rows: [{ seen }],
  } = await pool.query<{ seen: unknown }>(
    `select jsonb_build_object('id', f.id, 'name', f.name, 'target_email', f.target_email,
              'allowed_origin', f.allowed_origin, 'redirect_url', f.redirect_url,
              'captcha_provider', f.captcha_provider) seen
       from public.forms f where f.id = $1`,
    [form.id],
  );

  // As PostgREST runs an RPC: as the service role.
  const posting = new pg.Pool({
    connectionString: url,
    max: CONNECTIONS,
    options: '-c role=service_role',
  });
  posting.on('error', () => undefined);
  /** Runs `sql` on every posting connection (all of them checked out at once). */
  const onEach = async (sql: string) => {
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => posting.connect()));
    try {
      await Promise.all(clients.map((c) => c.query(sql).then(() => c.query('select 1'))));
    } finally {
      for (const c of clients) c.release();
    }
  };
  const text =
    'Name: Ada Lovelace\nE-mail: ada@example.test\n\nHello! I would like to know more about ' +
    'your project and its pricing.\n\ntopic: pricing\nplan: team\n';
  const notification = JSON.stringify({
    subject: 'New message from Ada Lovelace (Contact)',
    reply_to: 'ada@example.test',
    text,
    html: `<!doctype html><html><body><pre>${text}</pre></body></html>`,
  });
  const call = async (n: number) => {
    const started = performance.now();
    const { rows } = await posting.query<{ r: { status: string } }>(
      `select public.accept_post(
         p_seen => $1, p_entry_id => $2, p_form_id => $3, p_ip_hash => $4, p_name => $5,
         p_email => $6, p_message => $7, p_data => $8, p_is_spam => false,
         p_notification => $9, p_per_minute => $10, p_per_day => $10, p_form_per_minute => $10,
         p_account_per_hour => $10, p_account_per_day => $10, p_idempotency_key => $11,
         p_client_counted => false, p_field_order => $12) r`,
      [
        JSON.stringify(seen),
        randomUUID(),
        form.id,
        `client-${n % CLIENTS}`,
        'Ada Lovelace',
        'ada@example.test',
        'Hello! I would like to know more about your project and its pricing.',
        JSON.stringify({ topic: 'pricing', plan: 'team' }),
        notification,
        LIFTED,
        randomUUID(),
        ['name', 'email', 'message', 'topic', 'plan'],
      ],
    );
    if (rows[0].r.status !== 'accepted') throw new Error(`post ${n}: ${JSON.stringify(rows[0].r)}`);
    return performance.now() - started;
  };

  /** Posts `from` … `from + count - 1`, CONNECTIONS at a time; the latency of each. */
  const run = async (from: number, count: number) => {
    const times: number[] = [];
    let next = from;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < from + count) times.push(await call(next++));
      }),
    );
    return times;
  };

  await run(0, WARM_UP);
  // The warm-up's own counts reach shared memory first, so that the resets clear them.
  await onEach('select pg_stat_force_next_flush()');
  await pool.query('checkpoint');
  await pool.query('select extensions.pg_stat_statements_reset()');
  await pool.query('select pg_stat_reset()'); // this database's function counters
  await pool.query(`select pg_stat_reset_shared('wal')`);
  const {
    rows: [{ lsn: lsnBefore }],
  } = await pool.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text lsn');

  const started = performance.now();
  const times = await run(WARM_UP, POSTS);
  const elapsed = performance.now() - started;

  await onEach('select pg_stat_force_next_flush()');
  await posting.end();
  await pool.query('select pg_stat_force_next_flush()');
  const {
    rows: [wal],
  } = await pool.query<{ records: string; fpi: string; bytes: string; lsn_bytes: string }>(
    `select w.wal_records::text records, w.wal_fpi::text fpi, w.wal_bytes::text bytes,
            (pg_current_wal_insert_lsn() - $1::pg_lsn)::text lsn_bytes
       from pg_stat_wal w`,
    [lsnBefore],
  );
  const { rows: statements } = await pool.query<{
    toplevel: boolean;
    query: string;
    calls: string;
    mean: number;
    total: number;
    wal_records: string;
    wal_bytes: string;
  }>(
    `select s.toplevel, s.query, s.calls::text, s.mean_exec_time mean, s.total_exec_time total,
            s.wal_records::text, s.wal_bytes::text
       from extensions.pg_stat_statements s
      where s.dbid = (select oid from pg_database where datname = current_database())
        and s.query not ilike '%pg_stat%' and s.query not ilike '%pg_current_wal%'
        and s.query not in ('select 1')
      order by s.total_exec_time desc`,
  );
  const { rows: functions } = await pool.query<{
    name: string;
    calls: string;
    total: number;
    self: number;
  }>(
    `select f.schemaname || '.' || f.funcname name, f.calls::text, f.total_time total,
            f.self_time self
       from pg_stat_user_functions f
      order by f.self_time desc`,
  );

  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const top = statements.find((s) => s.toplevel && /accept_post/.test(s.query));
  const per = (v: string | number) => Number(v) / POSTS;
  const f2 = (v: number) => v.toFixed(2);
  const f3 = (v: number) => v.toFixed(3);
  const oneLine = (q: string) => {
    const s = q.replace(/\s+/g, ' ').trim();
    return (s.length > 110 ? `${s.slice(0, 107)}...` : s).replace(/\|/g, '\\|');
  };

  console.log(
    `Measured ${new Date().toISOString()} on ${machineSummary()}, load average (1 min) ${os.loadavg()[0].toFixed(1)}.`,
  );
  console.log(
    `${POSTS} posts after ${WARM_UP} warm-up posts, ${CONNECTIONS} connection${CONNECTIONS === 1 ? '' : 's'} posting at once, ${CLIENTS} visitors in turn.\n`,
  );
  console.log('| per post | value |');
  console.log('|---|---|');
  console.log(
    `| call, round trip (mean / p50 / p99) | ${f3(times.reduce((a, b) => a + b, 0) / POSTS)} / ${f3(pct(0.5))} / ${f3(pct(0.99))} ms |`,
  );
  console.log(`| posts per second | ${(POSTS / (elapsed / 1000)).toFixed(0)} |`);
  console.log(`| accept_post() execution in Postgres (mean) | ${top ? f3(top.mean) : '?'} ms |`);
  console.log(`| WAL records (pg_stat_wal) | ${f2(per(wal.records))} |`);
  console.log(
    `| WAL bytes (pg_stat_wal / insert position) | ${per(wal.bytes).toFixed(0)} / ${per(wal.lsn_bytes).toFixed(0)} |`,
  );
  console.log(`| full-page images | ${f2(per(wal.fpi))} |`);
  console.log("\nStatements (nested included; a statement's time includes what it calls):\n");
  console.log('| calls/post | mean ms | ms/post | WAL rec/post | WAL B/post | statement |');
  console.log('|---|---|---|---|---|---|');
  for (const s of statements.filter((s) => per(s.calls) >= 0.5)) {
    console.log(
      `| ${f2(per(s.calls))} | ${f3(s.mean)} | ${f3(per(s.total))} | ${f2(per(s.wal_records))} | ${per(s.wal_bytes).toFixed(0)} | ${s.toplevel ? '' : '↳ '}${oneLine(s.query)} |`,
    );
  }
  console.log('\nFunctions and triggers (own time excludes the functions they call):\n');
  console.log('| calls/post | own ms/post | total ms/post | function |');
  console.log('|---|---|---|---|');
  for (const f of functions.filter((f) => per(f.calls) >= 0.5)) {
    console.log(`| ${f2(per(f.calls))} | ${f3(per(f.self))} | ${f3(per(f.total))} | ${f.name} |`);
  }
} finally {
  await pool.end().catch(() => undefined);
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
