// What each REST request handler is given: the service's runtime (its pool, schema cache and
// `max_rows`) and the request itself, with the identity its JWT proved.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { RequestIdentity } from './request-auth.ts';
import type { SchemaCache } from './schema-cache.ts';

export interface RestRuntime {
  /** Logged in as `authenticator`, in pipeline mode (transaction.ts). */
  pool: pg.Pool;
  cache: SchemaCache;
  /** `[api] max_rows`: the most rows a read answers. */
  maxRows: number | null;
}

export interface RestCall {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  identity: RequestIdentity;
  /** When the request arrived (performance.now()), for reloads of the schema cache on a miss. */
  startedAt: number;
}
