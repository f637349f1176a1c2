// Supabase Storage stand-in mounted at /storage/v1: buckets and objects in the `storage` schema
// (bootstrap.sql), the objects' bytes on disk under `<dataDir>/storage` (files.ts), every request's
// SQL run as the JWT's role so RLS policies on storage.objects decide (caller.ts), signed URLs
// with a secret of its own (signing.ts). What it does not serve is refused (routes.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { HttpService, StackContext } from '../context.ts';
import { authenticatorUrl } from '../postgres/authenticator.ts';
import { logConnectionErrors } from '../postgres/pool-errors.ts';
import { identifyCaller, requestSettingsOf } from './caller.ts';
import type { StorageRuntime } from './context.ts';
import { errors, sendStorageError, toStorageError } from './errors.ts';
import { ObjectFiles } from './files.ts';
import { notServed, storageRouter } from './routes.ts';
import { loadUrlSigningSecret } from './signing.ts';

const POOL_SIZE = 10;

/** A route parameter as sent (percent-encoded), decoded; a bad encoding is an invalid key. */
function decodeParam(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    throw errors.invalidKey(value ?? '');
  }
}

/**
 * `fresh`: the database was just created, so files left from an older one are dropped.
 */
export async function createStorageService(
  ctx: StackContext,
  options: { fresh: boolean },
): Promise<HttpService> {
  const log = (m: string) => ctx.log('storage', m);
  const storageDir = path.join(ctx.settings.dataDir, 'storage');
  await mkdir(storageDir, { recursive: true });
  const files = new ObjectFiles(storageDir);
  await files.prepare(options.fresh);
  // As REST: logged in as `authenticator`, so a request can only become an API role.
  const pool = new pg.Pool({
    connectionString: authenticatorUrl(ctx.settings.dbUrl),
    max: POOL_SIZE,
  });
  logConnectionErrors(pool, log);
  const runtime: StorageRuntime = {
    pool,
    adminPool: ctx.pool,
    files,
    urlSigningSecret: await loadUrlSigningSecret(storageDir),
    globalFileSizeLimit: ctx.settings.project.storage.fileSizeLimit,
  };
  const router = storageRouter();

  return {
    async handle(req, res, urlPath, url) {
      const method = (req.method ?? 'GET').toUpperCase();
      try {
        const match = router.match(method, urlPath);
        if (match.kind !== 'found') throw notServed(method, urlPath);
        const { handler, params } = match;
        if (typeof handler === 'string') throw notServed(method, urlPath, handler);
        const bucket = decodeParam(params.bucket);
        const key = decodeParam(params['*']);
        // Open routes check their token themselves and run as the admin, not as a caller.
        const caller = handler.open
          ? { role: 'anon', claims: {}, sub: undefined, request: requestSettingsOf(req, urlPath) }
          : await identifyCaller(req, urlPath, ctx.settings.jwtSecret);
        await handler.run(runtime, { req, res, url, bucket, key, caller });
      } catch (err) {
        const error = toStorageError(err);
        if (error.statusCode === '500') {
          log(`${method} ${url.pathname}: ${(err as Error)?.stack ?? String(err)}`);
        }
        // The body is read to its end first: answering earlier resets the client's connection.
        if (!req.readableEnded && !req.destroyed) {
          await (async () => {
            for await (const chunk of req) void chunk;
          })().catch(() => undefined);
        }
        sendStorageError(res, error);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
