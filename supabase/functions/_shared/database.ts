// A direct Postgres connection for the calls made on every post (accept_post, the outbox's claim and
// finish): one socket hop to the database instead of gateway → REST → Postgres. It answers like
// supabase-js's `rpc` ({ data, error }, data shaped as PostgREST shapes it), so the stores work
// over either, and calls as the service role, as REST did. Safe behind Supavisor's transaction
// pooler, as Supabase advises for Edge Functions: every call is one round trip and one transaction
// (`set local role` and the call, in one simple query), with no prepared statements and no session
// state left on the connection.
import pg from 'npm:pg@8.23.1';
import type { RpcClient } from './outbox/store.ts';
import {
  SIGNATURES_QUERY,
  signaturesFromRows,
  sqlCall,
  type Signature,
  type SignatureRow,
} from './sql-call.ts';

/** The connection string: DATABASE_POOLER_URL if set, else SUPABASE_DB_URL (set by Supabase). */
export function databaseUrlFromEnv(env: (name: string) => string | undefined): string {
  const url = env('DATABASE_POOLER_URL') || env('SUPABASE_DB_URL');
  if (!url)
    throw new Error(
      'The function needs SUPABASE_DB_URL (set by Supabase) or DATABASE_POOLER_URL to reach the database.',
    );
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error(
      'DATABASE_POOLER_URL and SUPABASE_DB_URL must be postgresql:// connection strings.',
    );
  return url;
}

/**
 * A small pool kept open across requests (`max` connections, each closed after a minute idle).
 * While the database is away a call fails within `connectTimeoutSeconds`, so the endpoint gives
 * its 503 at once instead of holding the visitor.
 */
export function connectDatabase(
  url: string,
  opts: { max?: number; connectTimeoutSeconds?: number } = {},
): RpcClient {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 4,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: (opts.connectTimeoutSeconds ?? 5) * 1000,
    application_name: 'tinyback-functions',
  });
  // A pooled connection the server closed (a restart) is dropped; the next call opens another.
  pool.on('error', () => {});
  const overloads = new Map<string, Promise<Signature[]>>();

  function overloadsOf(name: string): Promise<Signature[]> {
    const known = overloads.get(name);
    if (known) return known;
    const found = pool
      .query(SIGNATURES_QUERY, [name])
      .then((result: pg.QueryResult) => signaturesFromRows(result.rows as SignatureRow[]));
    // A failed read (the database away) is asked again on the next call.
    found.catch(() => overloads.delete(name));
    overloads.set(name, found);
    return found;
  }

  return {
    async rpc(name, args) {
      try {
        const call = sqlCall(name, args, await overloadsOf(name), pg.escapeLiteral);
        if ('error' in call) return { data: null, error: { message: call.error } };
        // Two statements, one implicit transaction: the role lasts for this call only.
        const results = (await pool.query(
          `set local role service_role; ${call.query}`,
        )) as unknown as pg.QueryResult[];
        return { data: (results[1]?.rows[0]?.data as unknown) ?? null, error: null };
      } catch (err) {
        return { data: null, error: { message: (err as Error).message } };
      }
    },
  };
}
