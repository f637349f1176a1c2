// Who a Storage request acts as, and running its SQL as them: the bearer JWT is verified with the
// project's secret (a bad or missing one is AccessDenied), and each request's statements run in one
// transaction with `set local role <the JWT's role>` and the claims Storage sets
// (`request.jwt.claims`, `request.jwt.claim.sub`/`.role`, `request.method`/`.path`/`.headers`,
// `storage.operation`), so the RLS
// policies on storage.objects and storage.buckets decide, as on Supabase.
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import { bearerToken } from '../http.ts';
import { verifyJwt, type Claims } from '../jwt.ts';
import { errors } from './errors.ts';

export interface Caller {
  role: string;
  claims: Claims;
  /** The JWT's `sub`: the owner of what the caller uploads. */
  sub: string | undefined;
  /** `request.method`, `request.path`, `request.headers` as Storage sets them for policies. */
  request: { method: string; path: string; headers: Record<string, string> };
}

/** The deprecated uuid `owner` column takes a `sub` only when it is a uuid (`owner_id` takes any). */
export function uuidOrNull(value: string | null | undefined): string | null {
  return value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
    ? value
    : null;
}

/** The request as policies see it (`current_setting('request.headers')::json`, …). */
export function requestSettingsOf(req: IncomingMessage, path: string): Caller['request'] {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { method: req.method ?? 'GET', path, headers };
}

export async function identifyCaller(
  req: IncomingMessage,
  path: string,
  jwtSecret: string,
): Promise<Caller> {
  const token = bearerToken(req);
  if (!token) throw errors.accessDenied('Missing authorization header');
  const result = await verifyJwt(token, jwtSecret);
  if (!result.ok) throw errors.accessDenied(result.message);
  const claims = result.claims;
  const role = typeof claims.role === 'string' && claims.role ? claims.role : 'anon';
  return {
    role,
    claims,
    sub: typeof claims.sub === 'string' ? claims.sub : undefined,
    request: requestSettingsOf(req, path),
  };
}

/** What a transaction runs as: a caller (their role and claims), or the superuser pool as is. */
export interface TransactionScope {
  caller?: Caller;
  /** `storage.operation` (`storage.object.upload`, …), which policies read with storage.operation(). */
  operation: string;
  /** Lets the statement delete rows despite storage.protect_delete() (the API's own deletes). */
  allowDelete?: boolean;
}

/**
 * Runs `work` in one transaction on `pool`, set up for `scope`, and commits. With a caller, `pool`
 * logs in as `authenticator`, so Postgres refuses roles not granted to it (a forged
 * `"role": "postgres"`) and the connection goes back to the pool as `authenticator`.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  scope: TransactionScope,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const settings: [string, string][] = [
      ['search_path', 'storage, public, extensions'],
      ['storage.operation', scope.operation],
      ['storage.allow_delete_query', scope.allowDelete ? 'true' : 'false'],
    ];
    const { caller } = scope;
    if (caller) {
      settings.push(
        ['role', caller.role],
        ['request.jwt.claims', JSON.stringify({ ...caller.claims, role: caller.role })],
        ['request.jwt.claim.sub', caller.sub ?? ''],
        ['request.jwt.claim.role', caller.role],
        ['request.method', caller.request.method],
        ['request.path', caller.request.path],
        ['request.headers', JSON.stringify(caller.request.headers)],
      );
    }
    const values = settings.flat();
    const calls = settings.map(
      (_, i) => `pg_catalog.set_config($${2 * i + 1}, $${2 * i + 2}, true)`,
    );
    await client.query(`select ${calls.join(', ')}`, values);
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch((e: Error) => {
      broken = e;
    });
    // A connection-level failure must not go back to the pool.
    if (!(err as { code?: string }).code && !(err instanceof Error && 'statusCode' in err)) {
      broken ??= err as Error;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}
