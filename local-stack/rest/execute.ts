// Runs a planned statement in one transaction as the request's role (transaction.ts), with the
// request's method, path and headers set as PostgREST sets them.
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import type { RestRuntime } from './context.ts';
import type { RequestIdentity } from './request-auth.ts';
import { inRequestTransaction } from './transaction.ts';

export interface Statement {
  text: string;
  values: unknown[];
}

/** The one row every planned statement answers: counts and the body Postgres rendered. */
export interface ResultRow {
  total: string | null;
  page_total: string;
  body: string | null;
  location_key?: string | null;
  /** Rows an upsert updated instead of inserting (merge-duplicates only). */
  pgrst_updated?: number | null;
}

export async function execute(
  rt: RestRuntime,
  req: IncomingMessage,
  identity: RequestIdentity,
  urlPath: string,
  statement: Statement,
  opts: { readOnly: boolean; rollback: boolean; check?: (row: ResultRow) => void },
): Promise<ResultRow> {
  const { readOnly, rollback, check } = opts;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  // Always the extended protocol, as PostgREST's prepared statements: Postgres itself then
  // refuses any text holding more than one statement, even one without parameters.
  // (node-postgres reads `queryMode`; its type definitions do not list it yet.)
  const query: pg.QueryConfig & { queryMode: 'extended' } = {
    text: statement.text,
    values: statement.values,
    queryMode: 'extended',
  };
  const rows = await inRequestTransaction<ResultRow>(
    rt.pool,
    {
      readOnly,
      rollback,
      role: identity.role,
      claims: identity.claims,
      method: req.method ?? 'GET',
      path: urlPath,
      headers,
      roleSettings: (await rt.cache.get()).roleSettings.get(identity.role) ?? [],
    },
    query,
    // Checked inside the transaction so that a refused write is rolled back, as PostgREST does.
    check && ((checked) => check(checked[0])),
  );
  return rows[0];
}
