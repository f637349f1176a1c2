// Runs one request's statement in one transaction on a pooled connection, set up the way
// PostgREST sets it up: the JWT's role (the pool logs in as `authenticator`, which may only switch
// to the roles granted to it), `request.jwt.claims`, `request.method/path/headers`, the role's
// settings and the search path. Postgres then enforces GRANTs and RLS for that role. The pool runs
// its connections in pipeline mode: `begin`, the settings and the request's statement leave in one
// write and come back in one round trip, then `commit` (PostgREST pipelines them likewise).
import type pg from 'pg';
import type { Claims } from '../jwt.ts';

export interface RequestSettings {
  readOnly: boolean;
  /** `Prefer: tx=rollback`: run everything, answer as usual, keep nothing. */
  rollback: boolean;
  role: string;
  claims: Claims;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** `alter role … set` settings of the role, applied like PostgREST's impersonated role settings. */
  roleSettings: [string, string][];
}

/** Role settings a non-superuser may set per transaction; others stay session-level in Postgres. */
const APPLIED_ROLE_SETTINGS = new Set([
  'statement_timeout',
  'lock_timeout',
  'idle_in_transaction_session_timeout',
  'work_mem',
  'timezone',
]);

/** The client's socket, when it can be corked (so pipelined messages leave in one write). */
function corkable(client: pg.PoolClient): { cork(): void; uncork(): void } | undefined {
  const stream = (
    client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }
  ).connection?.stream;
  return stream?.cork && stream.uncork ? (stream as { cork(): void; uncork(): void }) : undefined;
}

/**
 * Runs `statement` in the request's transaction and answers its rows. `check` sees the rows before
 * the commit and may throw to roll the transaction back; without it (and without `rollback`) the
 * commit is pipelined too, so the whole request is one round trip to Postgres.
 */
export async function inRequestTransaction<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  settings: RequestSettings,
  statement: pg.QueryConfig,
  check?: (rows: R[]) => void,
): Promise<R[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // The role is switched inside the transaction (`set_config('role', …, true)` is `set local
    // role`), so Postgres refuses roles not granted to `authenticator` (e.g. a forged
    // `"role": "postgres"`) and the connection returns to the pool as `authenticator`.
    try {
      const pairs: [string, string][] = [
        ...settings.roleSettings.filter(([k]) => APPLIED_ROLE_SETTINGS.has(k) || k.includes('.')),
        ['search_path', '"public", "extensions"'],
        ['role', settings.role],
        ['request.jwt.claims', JSON.stringify({ ...settings.claims, role: settings.role })],
        ['request.method', settings.method],
        ['request.path', settings.path],
        ['request.headers', JSON.stringify(settings.headers)],
        ['request.cookies', '{}'],
      ];
      const values: string[] = [];
      const calls = pairs.map(([k, v]) => {
        values.push(k, v);
        return `pg_catalog.set_config($${values.length - 1}, $${values.length}, true)`;
      });
      const commitAtOnce = !check && !settings.rollback;
      // Sent without waiting for each other's answers: a failure in one aborts the transaction,
      // so the statements behind it fail too (and a pipelined `commit` only rolls back); nothing
      // ever runs outside the transaction or under the login role.
      const stream = corkable(client);
      stream?.cork();
      const pending: Promise<unknown>[] = [];
      let working: Promise<pg.QueryResult<R>>;
      let committed: Promise<unknown> | undefined;
      try {
        pending.push(
          client.query(
            `begin isolation level read committed ${settings.readOnly ? 'read only' : 'read write'}`,
          ),
          client.query(`select ${calls.join(', ')}`, values),
        );
        working = client.query<R>(statement);
        if (commitAtOnce) committed = client.query('commit');
      } finally {
        stream?.uncork();
      }
      // Each is awaited below in order; handled here so an early failure leaves none unhandled.
      for (const p of [...pending, working, committed]) p?.catch(() => undefined);
      for (const p of pending) await p;
      const { rows } = await working;
      if (committed) {
        await committed;
        return rows;
      }
      check?.(rows);
      await client.query(settings.rollback ? 'rollback' : 'commit');
      return rows;
    } catch (err) {
      await client.query('rollback').catch((e: Error) => {
        broken = e;
      });
      throw err;
    }
  } catch (err) {
    // Connection-level failures must not return a dead connection to the pool.
    if (!(err as { code?: string }).code) broken ??= err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
