// Runs one request's statement in one transaction on a pooled connection, set up the way
// PostgREST sets it up: the JWT's role (the pool logs in as `authenticator`, which may only switch
// to the roles granted to it), `request.jwt.claims`, `request.method/path/headers`, the role's
// settings and the search path. Postgres then enforces GRANTs and RLS for that role.
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

export async function inRequestTransaction<T>(
  pool: pg.Pool,
  settings: RequestSettings,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // The role is switched inside the transaction (`set_config('role', …, true)` is `set local
    // role`), so Postgres refuses roles not granted to `authenticator` (e.g. a forged
    // `"role": "postgres"`) and the connection returns to the pool as `authenticator`.
    try {
      await client.query(
        `begin isolation level read committed ${settings.readOnly ? 'read only' : 'read write'}`,
      );
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
      await client.query(`select ${calls.join(', ')}`, values);
      const result = await work(client);
      await client.query(settings.rollback ? 'rollback' : 'commit');
      return result;
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
