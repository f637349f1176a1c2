// A direct Postgres connection for the calls made on every post (accept_post, the outbox's claim and
// finish): one socket hop to the database instead of gateway → REST → Postgres. It answers like
// supabase-js's `rpc` ({ data, error }, data shaped as PostgREST shapes it), so the stores work
// over either, and calls as the service role, as REST did. Safe behind Supavisor's transaction
// pooler, as Supabase advises for Edge Functions: every call (or batch of calls, see `together`)
// is one round trip and one transaction (`set local role` and the calls, in one simple query), with
// no prepared statements and no session state left on the connection.
import pg from 'npm:pg@8.23.1';
import { createCallBatches } from './call-batches.ts';
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

/** SQLSTATEs of a failed connection or server, not of a statement: connection exception,
 * insufficient resources, a shutdown or restart (57P…; a canceled statement, 57014, is the
 * statement's), system error. */
const CONNECTION_FAILURE = /^(08|53|57P|58)/;

/** A call batch's limits (call-batches.ts): a post's statement is a few KB, a few hundred at most
 * (a body of up to 64 KiB, repeated in the e-mail's text and HTML). */
const BATCH = { maxCalls: 16, maxChars: 1_000_000 };

/**
 * A small pool kept open across requests (`max` connections, each closed after a minute idle).
 * While the database is away a call fails within `connectTimeoutSeconds`, so the endpoint gives
 * its 503 at once instead of holding the visitor. Calls of the functions named in `together` that
 * arrive while one of them is in flight share a round trip and a transaction (call-batches.ts):
 * only functions whose calls are independent of each other, and each answers as if alone.
 */
export function connectDatabase(
  url: string,
  opts: { max?: number; connectTimeoutSeconds?: number; together?: readonly string[] } = {},
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

  /** Statements in one simple query, one implicit transaction: the role lasts for it only. */
  async function runTogether(statements: readonly string[]): Promise<unknown[]> {
    const results = (await pool.query(
      `set local role service_role; ${statements.join('; ')}`,
    )) as unknown as pg.QueryResult[];
    return statements.map((_, i) => (results[i + 1]?.rows[0]?.data as unknown) ?? null);
  }
  const batched = createCallBatches({
    run: runTogether,
    // An error the server sent (it has a SQLSTATE), not one of the connection's.
    isStatementError: (err) =>
      err instanceof pg.DatabaseError &&
      !CONNECTION_FAILURE.test((err as { code?: string }).code ?? ''),
    ...BATCH,
  });
  const together = new Set(opts.together ?? []);

  return {
    async rpc(name, args) {
      try {
        const call = sqlCall(name, args, await overloadsOf(name), pg.escapeLiteral);
        if ('error' in call) return { data: null, error: { message: call.error } };
        const data = together.has(name)
          ? await batched(call.query)
          : (await runTogether([call.query]))[0];
        return { data, error: null };
      } catch (err) {
        return { data: null, error: { message: (err as Error).message } };
      }
    },
  };
}
