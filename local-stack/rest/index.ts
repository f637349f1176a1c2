// PostgREST stand-in mounted at /rest/v1: reads the request (body, profile, JWT), routes it to the
// root document, a function (`/rpc/<fn>`) or a table, and answers PostgREST's errors. Each handler
// plans its SQL against the schema cache and runs it in one transaction as the request's role,
// on the service's own pool logged in as `authenticator` (never as the superuser), as PostgREST
// is on Supabase.
import pg from 'pg';
import type { HttpService, StackContext } from '../context.ts';
import { authenticatorUrl } from '../postgres/authenticator.ts';
import { logConnectionErrors } from '../postgres/pool-errors.ts';
import type { RestCall, RestRuntime } from './context.ts';
import { databaseConfig, refuseDatabaseConfig } from './database-config.ts';
import { RestError, toRestError } from './errors.ts';
import { checkProfile } from './negotiation.ts';
import { handleRead } from './read-request.ts';
import { ANON_ROLE, identify, type RequestIdentity } from './request-auth.ts';
import { checkJsonContentType, parseJson, readRequestBody } from './request-body.ts';
import { sendError } from './responses.ts';
import { sendRootDocument } from './root-document.ts';
import { resourceOf } from './routes.ts';
import { handleRpc } from './rpc-request.ts';
import { SchemaCache } from './schema-cache.ts';
import { handleWrite } from './write-request.ts';

/** Connections of the REST pool (PostgREST's `db-pool` default is 10; tests run requests in parallel). */
const POOL_SIZE = 20;

export function createRestService(ctx: StackContext): HttpService {
  const log = (m: string) => ctx.log('rest', m);
  // Its own pool as `authenticator`: SQL smuggled into a request can never act as the superuser.
  const dbUrl = authenticatorUrl(ctx.settings.dbUrl);
  // Pipeline mode: a request's statements go out together (transaction.ts).
  const pool = new pg.Pool({ connectionString: dbUrl, max: POOL_SIZE, pipeline: true });
  logConnectionErrors(pool, log);
  const cache = new SchemaCache(pool, dbUrl, log);
  cache.listen().catch((err: Error) => log(`cannot listen for schema reloads: ${err.message}`));
  const runtime: RestRuntime = { pool, cache, maxRows: ctx.settings.project.maxRows };
  // Read at start so in-database PostgREST settings are named before the first request.
  cache
    .get()
    .then((snapshot) => {
      const settings = databaseConfig(snapshot);
      if (settings.length) log(`${settings.join(', ')}: not honoured; every request is refused`);
    })
    .catch(() => undefined);

  return {
    async handle(req, res, urlPath, url) {
      const startedAt = performance.now();
      let identity: RequestIdentity | undefined;
      const method = (req.method ?? 'GET').toUpperCase();
      try {
        // The body is read first so every answer, errors included, comes after the whole request.
        const raw = method !== 'GET' && method !== 'HEAD' ? await readRequestBody(req) : undefined;
        checkProfile(req, ctx.settings.project.schemas);
        identity = await identify(req, ctx.settings.jwtSecret);
        refuseDatabaseConfig(await cache.get());
        const { resource, name } = resourceOf(method, urlPath);
        const call: RestCall = { req, res, url, identity, startedAt };

        if (resource === 'root') {
          if (method !== 'GET' && method !== 'HEAD') {
            throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
          }
          return await sendRootDocument(runtime, res, startedAt);
        }
        if (resource === 'rpc') {
          if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
            throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
          }
          if (method === 'POST') checkJsonContentType(req);
          const body = raw ? parseJson(raw) : undefined;
          return await handleRpc(runtime, call, name, body, raw?.toString('utf8'));
        }
        if (method === 'GET' || method === 'HEAD') return await handleRead(runtime, call, name);
        if (method === 'POST' || method === 'PATCH' || method === 'DELETE') {
          if (method !== 'DELETE') checkJsonContentType(req);
          const body = raw && method !== 'DELETE' ? parseJson(raw) : undefined;
          return await handleWrite(runtime, call, name, body);
        }
        if (method === 'PUT') {
          throw new RestError(
            400,
            'PGRST127',
            'Feature not implemented',
            'PUT is not supported by the local stack; use POST with Prefer: resolution=merge-duplicates.',
          );
        }
        throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      } catch (err) {
        const restError = toRestError(err, identity !== undefined && identity.role !== ANON_ROLE);
        if (restError.status >= 500)
          log(`${method} ${url.pathname}${url.search}: ${restError.code} ${restError.message}`);
        sendError(res, restError);
      }
    },
    async close() {
      await cache.close();
      await pool.end();
    },
  };
}
