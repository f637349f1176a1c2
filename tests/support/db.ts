// Database helpers for integration tests: a superuser pool on the test stack's PostgreSQL, users
// created the way GoTrue stores them, and running SQL as `anon`, a signed-in user or the service
// role exactly as PostgREST does (role switched and JWT claims set inside a transaction).
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export type Actor =
  | { role: 'anon' }
  | { role: 'authenticated'; userId: string; email?: string }
  | { role: 'service_role' };

export const anon: Actor = { role: 'anon' };
export const serviceRole: Actor = { role: 'service_role' };
export const user = (userId: string, email?: string): Actor => ({
  role: 'authenticated',
  userId,
  email,
});

/** What one statement did: its rows, or the Postgres error code (42501 = permission denied). */
export interface Outcome<R = Record<string, unknown>> {
  rows: R[];
  rowCount: number;
  code?: string;
  message?: string;
}

export type Query = <R = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<Outcome<R>>;

/** A pool connected as the `postgres` superuser (bypasses RLS and grants; for setup only). */
export function superuserPool(dbUrl: string): pg.Pool {
  return new pg.Pool({ connectionString: dbUrl, max: 4 });
}

/** The JWT claims PostgREST would expose for this actor, as GoTrue/Supabase issue them. */
function claimsOf(actor: Actor): Record<string, unknown> {
  if (actor.role === 'authenticated') {
    return {
      sub: actor.userId,
      role: 'authenticated',
      aud: 'authenticated',
      email: actor.email ?? '',
    };
  }
  return { role: actor.role, iss: 'supabase-demo' };
}

async function capture<R>(
  client: pg.PoolClient,
  sql: string,
  params?: unknown[],
): Promise<Outcome<R>> {
  // A savepoint per statement so that one denied statement does not end the transaction.
  await client.query('savepoint stmt');
  try {
    const res = await client.query(sql, params);
    await client.query('release savepoint stmt');
    return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 };
  } catch (err) {
    await client.query('rollback to savepoint stmt');
    const e = err as { code?: string; message?: string };
    return { rows: [], rowCount: 0, code: e.code, message: e.message };
  }
}

/**
 * Runs `fn` inside one transaction as `actor`, then rolls everything back. `setup`, if given,
 * runs first in the same transaction as the superuser (to create rows only this test sees).
 */
export async function withActor<T>(
  pool: pg.Pool,
  actor: Actor,
  fn: (query: Query) => Promise<T>,
  setup?: (query: Query) => Promise<unknown>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    if (setup) await setup((sql, params) => capture(client, sql, params));
    await client.query(`set local role ${actor.role}`);
    await client.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify(claimsOf(actor)),
    ]);
    return await fn((sql, params) => capture(client, sql, params));
  } finally {
    await client.query('rollback').catch(() => undefined);
    client.release();
  }
}

/** Runs one statement as `actor` in a transaction that is rolled back. */
export function runAs<R = Record<string, unknown>>(
  pool: pg.Pool,
  actor: Actor,
  sql: string,
  params?: unknown[],
): Promise<Outcome<R>> {
  return withActor(pool, actor, (query) => query<R>(sql, params));
}

/** Runs one statement as the signed-in user `userId` (rolled back). */
export function asUser<R = Record<string, unknown>>(
  pool: pg.Pool,
  userId: string,
  sql: string,
  params?: unknown[],
): Promise<Outcome<R>> {
  return runAs<R>(pool, user(userId), sql, params);
}

/** Runs one statement as a signed-out visitor (rolled back). */
export function asAnon<R = Record<string, unknown>>(
  pool: pg.Pool,
  sql: string,
  params?: unknown[],
): Promise<Outcome<R>> {
  return runAs<R>(pool, anon, sql, params);
}

export interface TestUser {
  id: string;
  email: string;
  name: string;
}

/** A unique e-mail address, so tests sharing one stack never collide. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

/** Inserts a confirmed user into auth.users the way GoTrue does on sign-up (committed). */
export async function createAuthUser(
  pool: pg.Pool,
  name: string,
  email = uniqueEmail(name.toLowerCase()),
): Promise<TestUser> {
  const id = randomUUID();
  await pool.query(
    `insert into auth.users
       (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
             extensions.crypt('password123', extensions.gen_salt('bf')), now(),
             '{"provider":"email","providers":["email"]}', $3, now(), now())`,
    [id, email, JSON.stringify({ name })],
  );
  return { id, email, name };
}

/** Creates a form owned by `userId` (committed, as the superuser). */
export async function createForm(
  pool: pg.Pool,
  userId: string,
  fields: { name?: string; target_email?: string; allowed_origin?: string } = {},
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.forms (user_id, name, target_email, allowed_origin)
     values ($1, $2, $3, $4) returning id`,
    [
      userId,
      fields.name ?? 'Contact',
      fields.target_email ?? 'owner@example.test',
      fields.allowed_origin ?? 'https://example.test',
    ],
  );
  return rows[0]!.id;
}

/** Inserts an entry as the form endpoint does (service role; committed). */
export function createEntry(
  pool: pg.Pool,
  formId: string,
  fields: { name?: string; email?: string; message?: string; data?: Record<string, unknown> } = {},
): Promise<{ id: string; user_id: string }> {
  return committed(pool, async (client) => {
    await client.query('set local role service_role');
    const { rows } = await client.query<{ id: string; user_id: string }>(
      `insert into public.entries (form_id, name, email, message, data)
       values ($1, $2, $3, $4, $5) returning id, user_id`,
      [
        formId,
        fields.name ?? 'Visitor',
        fields.email ?? 'visitor@example.test',
        fields.message ?? 'Hello',
        fields.data ?? {},
      ],
    );
    return rows[0]!;
  });
}

/**
 * Runs `work` on one connection in one transaction: committed if it resolves, rolled back if it
 * throws. What it changes is seen by others only all at once, e.g. by the stack's own scheduled
 * sweep, which runs every minute and would otherwise find a test's setup half done.
 */
export async function committed<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Runs one statement as the service role and commits it, as the functions' direct connection
 * does; its rows, or its error thrown.
 */
export function commitAsService<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  sql: string,
  params: unknown[],
): Promise<R[]> {
  return committed(pool, async (client) => {
    await client.query('set local role service_role');
    return (await client.query<R>(sql, params)).rows;
  });
}

/**
 * Runs sweep_retention() as the service role on `client`, inside the caller's transaction (see
 * `committed`), so it sweeps what that transaction set up before anything else can; its answer.
 */
export async function sweepRetentionIn<A>(client: pg.PoolClient): Promise<A> {
  await client.query('set local role service_role');
  const { rows } = await client.query<{ answer: A }>('select public.sweep_retention() as answer');
  return rows[0]!.answer;
}
