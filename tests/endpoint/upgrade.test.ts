// Upgrading a deployment to the private-internals layout (20261210100000_private_internals.sql and
// 20261211100000_private_settings_and_secrets.sql):
// a database built by the previous migrations, holding forms, entries, e-mail deliveries, webhooks
// and their deliveries and attempts, API keys, newsletter subscribers and tokens, rate-limit
// counters and target confirmations, gets the new migration as `supabase db push` would give it
// (here: the local stack starting on that data directory), keeps every row of every table, and
// its form endpoint accepts a post that reaches the owner's live channel and inbox.
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createClient, type RealtimeChannel } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, expect, it } from 'vitest';
import { SUPABASE_DIR } from '../../local-stack/config.ts';
import { applyMigrations, bootstrap } from '../../local-stack/postgres/migrate.ts';
import { startPostgres } from '../../local-stack/postgres/server.ts';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import { createEntry } from '../support/db.ts';
import { postFields, seedForm, until } from './support.ts';

const PRIVATE_INTERNALS = '20261210100000';

let dataDir: string | undefined;
let stack: RunningStack | undefined;

afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Rows per table of `public` and `private`, keyed by table name alone (the schema changes). */
async function rowCounts(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'private') and c.relkind = 'r' order by c.relname`,
  );
  const counts: Record<string, number> = {};
  for (const { schema, name } of rows) {
    const q = await pool.query<{ n: number }>(
      `select count(*)::int as n from ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`,
    );
    counts[name] = q.rows[0]!.n;
  }
  return counts;
}

/**
 * The rate-limit counters hold one row per client and window before 20261212100000_cheaper_accept.sql
 * and one per client after it: these tables are compared by their clients and counts instead.
 */
const WINDOW_TABLES = ['submission_rate_limits', 'newsletter_rate_limits'];

const withoutWindowTables = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([name]) => !WINDOW_TABLES.includes(name)));

/** Each rate-limited client with its current minute's and day's count, in either layout. */
async function windowCounts(pool: pg.Pool): Promise<string[]> {
  const counts: string[] = [];
  for (const table of WINDOW_TABLES) {
    const { rows: found } = await pool.query<{ schema: string; folded: boolean }>(
      `select n.nspname as schema,
              exists (select 1 from pg_attribute a where a.attrelid = c.oid
                       and a.attname = 'minute_hits' and not a.attisdropped) as folded
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relname = $1 and n.nspname in ('public', 'private') and c.relkind = 'r'`,
      [table],
    );
    const { schema, folded } = found[0]!;
    const name = `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`;
    const key = table === 'submission_rate_limits' ? 'form_id, ip_hash' : 'ip_hash';
    const client =
      table === 'submission_rate_limits' ? `form_id::text || ' ' || ip_hash` : 'ip_hash';
    const { rows } = await pool.query<{ line: string }>(
      folded
        ? `select ${client} || ' ' || minute_hits || ' ' || day_hits as line from ${name}`
        : `select ${client} || ' '
                  || coalesce(sum(hits) filter (where window_kind = 'minute'), 0) || ' '
                  || coalesce(sum(hits) filter (where window_kind = 'day'), 0) as line
             from ${name} group by ${key}`,
    );
    counts.push(...rows.map((r) => `${table} ${r.line}`));
  }
  return counts.sort();
}

/** Rows in every kind of table the upgrade touches, written as the previous layout stores them. */
async function fillPreviousLayout(pool: pg.Pool) {
  const form = await seedForm(pool, 'Before the upgrade');
  const { formId, userId } = form;
  await pool.query(
    `insert into public.webhooks (form_id, user_id, url, secret)
     values ($1, $2, 'https://hooks.example.test/in', 'whsec_upgrade')`,
    [formId, userId],
  );
  for (const message of ['first', 'second', 'third']) await createEntry(pool, formId, { message });
  const { rows: deliveries } = await pool.query<{ id: string; webhook_id: string }>(
    'select id, webhook_id from public.webhook_deliveries where user_id = $1',
    [userId],
  );
  expect(deliveries.length).toBeGreaterThan(0);
  await pool.query(
    `insert into public.webhook_attempts (delivery_id, webhook_id, user_id, ok, status_code)
     values ($1, $2, $3, true, 200)`,
    [deliveries[0]!.id, deliveries[0]!.webhook_id, userId],
  );
  await pool.query(
    `insert into public.email_deliveries (kind, recipient, subject, text_body, html_body)
     values ('quota_warning', $1, 'Quota', 'text', '<p>html</p>')`,
    [form.targetEmail],
  );
  await pool.query(
    `insert into public.api_keys (user_id, name, scope, prefix, key_hash)
     values ($1, 'Upgrade key', 'read_only', 'tb_upgr', $2)`,
    [userId, 'a'.repeat(64)],
  );
  const newsletter = await pool.query<{ r: { status: string } }>(
    `select public.request_newsletter_subscription(
       $1, 'upgrade-ip-hash', $2, $3,
       '{"subject":"Confirm","text":"Confirm","html":"<p>Confirm</p>"}'::jsonb,
       5, 20, 60, 86400, 604800) as r`,
    [`reader-${randomUUID().slice(0, 8)}@example.test`, randomUUID(), randomUUID()],
  );
  expect(newsletter.rows[0]!.r.status).toBe('accepted');
  await pool.query(
    `insert into public.submission_rate_limits (form_id, ip_hash, window_kind, window_start, hits)
     values ($1, 'upgrade-ip-hash', 'minute', date_trunc('minute', now()), 1)`,
    [formId],
  );
  await pool.query('insert into public.form_post_counts (form_id) values ($1)', [formId]);
  await pool.query(
    `insert into public.form_captcha_secrets (form_id, secret) values ($1, 'kept-secret')`,
    [formId],
  );
  await pool.query('insert into public.notification_counts (user_id) values ($1)', [userId]);
  await pool.query('insert into public.notification_sends (user_id) values ($1)', [userId]);
  await pool.query(
    `insert into public.target_email_confirmations (user_id, email) values ($1, 'new@target.example.test')`,
    [userId],
  );
  await pool.query(
    `insert into public.verified_target_emails (user_id, email) values ($1, 'old@target.example.test')`,
    [userId],
  );
  return form;
}

it('keeps every row and a working endpoint when a database moves to the private layout', async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-upgrade-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);

  // The database as the previous migrations left it.
  const previous = path.join(dataDir, 'previous-supabase');
  await mkdir(path.join(previous, 'migrations'), { recursive: true });
  for (const file of await readdir(path.join(SUPABASE_DIR, 'migrations'))) {
    if (file.endsWith('.sql') && file < PRIVATE_INTERNALS) {
      await copyFile(
        path.join(SUPABASE_DIR, 'migrations', file),
        path.join(previous, 'migrations', file),
      );
    }
  }
  const server = await startPostgres({ dataDir, port: db, reset: true });
  const oldPool = new pg.Pool({
    connectionString: `postgres://postgres:postgres@127.0.0.1:${db}/postgres`,
  });
  // The postmaster stops while the pool's connections close; their 57P01 is expected then.
  oldPool.on('error', () => undefined);
  let before: Record<string, number>;
  let windowsBefore: string[];
  let formId: string;
  let ownerEmail: string;
  try {
    await bootstrap(oldPool);
    await applyMigrations(oldPool, previous);
    ({ formId, targetEmail: ownerEmail } = await fillPreviousLayout(oldPool));
    before = await rowCounts(oldPool);
    windowsBefore = await windowCounts(oldPool);
  } finally {
    await oldPool.end();
    await server.stop();
  }
  expect(before.submission_rate_limits).toBeGreaterThan(0);
  expect(before.newsletter_tokens).toBeGreaterThan(0);
  expect(before.newsletter_subscribers).toBeGreaterThan(0);
  expect(before.form_captcha_secrets).toBeGreaterThan(0);

  // The same data directory, started with every migration (the new one runs here).
  stack = await startStack({ dataDir, ports: { api, db, mailWeb, smtp }, seed: false });
  const { rows: moved } = await stack.pool.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'private'::regnamespace and c.relkind = 'r' order by 1`,
  );
  expect(moved.map((r) => r.name)).toEqual(
    expect.arrayContaining([
      'submission_rate_limits',
      'newsletter_rate_limits',
      'notification_counts',
      'notification_sends',
      'newsletter_tokens',
      'target_email_confirmations',
      'verified_target_emails',
      'form_post_counts',
      // 20261211100000_private_settings_and_secrets.sql
      'used_form_ids',
      'form_captcha_secrets',
      'plan_settings',
      'webhook_settings',
      'newsletter_subscribers',
    ]),
  );
  // Every table of the previous layout keeps its rows (tables that later migrations add, such as
  // file uploads', start with only what those migrations put in).
  const after = await rowCounts(stack.pool);
  const kept = Object.fromEntries(Object.keys(before).map((name) => [name, after[name]]));
  expect(withoutWindowTables(kept)).toEqual(withoutWindowTables(before));
  // Every client keeps its counts (the minute and the day), now in one row.
  expect(windowsBefore.length).toBeGreaterThan(1);
  expect(await windowCounts(stack.pool)).toEqual(windowsBefore);
  const secret = await stack.pool.query<{ s: string }>(
    'select public.form_captcha_secret($1) as s',
    [formId],
  );
  expect(secret.rows[0]!.s).toBe('kept-secret');

  // The owner, signed in on the upgraded database, listens for new messages as the inbox does
  // (postgres_changes on entries, filtered on the owner) before the post.
  const owner = createClient(stack.settings.apiUrl, stack.settings.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
  const signedIn = await owner.auth.signInWithPassword({
    email: ownerEmail,
    password: 'password123',
  });
  expect(signedIn.error).toBeNull();
  const ownerId = signedIn.data.user!.id;
  const live: { id: string; message: string }[] = [];
  const channel = await new Promise<RealtimeChannel>((resolve, reject) => {
    const joined = owner
      .channel('upgraded-inbox')
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'entries', filter: `user_id=eq.${ownerId}` },
        (payload) => live.push(payload.new as { id: string; message: string }),
      )
      .on('system', {}, (message: { extension?: string; status?: string; message?: string }) => {
        if (message.extension !== 'postgres_changes') return;
        if (message.status === 'ok') resolve(joined);
        else reject(new Error(message.message));
      })
      .subscribe((status, err) => {
        if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(err ?? new Error(status));
      });
  });

  // The endpoint works on the upgraded database: the post is stored and counted privately.
  const res = await postFields(stack.settings.apiUrl, formId, {
    name: 'After',
    email: 'after@example.test',
    message: 'Posted after the upgrade',
  });
  expect(res.status).toBe(200);
  await until(
    'the entry',
    async () =>
      (
        await stack!.pool.query<{ n: number }>(
          'select count(*)::int as n from public.entries where form_id = $1',
          [formId],
        )
      ).rows[0]!.n,
    (n) => n === before.entries! + 1,
  );
  const counters = await stack.pool.query<{ n: number }>(
    'select count(*)::int as n from private.submission_rate_limits where form_id = $1',
    [formId],
  );
  expect(counters.rows[0]!.n).toBeGreaterThan(1);

  // The message reached the owner live, and the inbox lists it with the messages from before.
  await until(
    'the message on the live channel',
    async () => live.map((entry) => entry.message),
    (messages) => messages.includes('Posted after the upgrade'),
  );
  const inbox = await owner.from('entries').select('id, message').eq('form_id', formId);
  expect(inbox.error).toBeNull();
  expect(inbox.data).toHaveLength(before.entries! + 1);
  expect(inbox.data!.map((entry) => entry.id)).toContain(live[0]!.id);
  await owner.removeChannel(channel);
}, 240_000);
