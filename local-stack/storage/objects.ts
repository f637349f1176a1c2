// Reading, listing and removing objects as the caller: a row RLS hides reads as NoSuchKey, a list
// shows only the visible rows, a remove deletes only those the caller may delete (and their files).
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import { sendJson } from '../http.ts';
import { inTransaction } from './caller.ts';
import { findBucket, type StorageCall, type StorageRuntime } from './context.ts';
import { errors } from './errors.ts';
import { readJsonObject } from './body.ts';
import { checkKey } from './keys.ts';

export interface ObjectRow {
  id: string;
  name: string;
  version: string;
  metadata: {
    eTag?: string;
    size?: number;
    mimetype?: string;
    cacheControl?: string;
    lastModified?: string;
  } | null;
  user_metadata: unknown;
  created_at: Date;
  updated_at: Date;
}

const OBJECT_COLUMNS = 'id, name, version, metadata, user_metadata, created_at, updated_at';

/**
 * The object as the caller sees it (NoSuchBucket, then NoSuchKey for a missing or hidden row). With
 * `publicRead`, a public bucket's object is read without RLS, as Storage serves public buckets.
 */
export async function visibleObject(
  runtime: StorageRuntime,
  call: StorageCall,
  operation: string,
  publicRead = false,
): Promise<ObjectRow> {
  const bucket = await findBucket(runtime, call.bucket);
  if (!bucket) throw errors.noSuchBucket();
  checkKey(call.key);
  const rows =
    publicRead && bucket.public
      ? await selectObject(runtime.adminPool, call.bucket, call.key)
      : await inTransaction(runtime.pool, { caller: call.caller, operation }, async (client) =>
          selectObject(client, call.bucket, call.key),
        );
  if (!rows[0]) throw errors.noSuchKey();
  return rows[0];
}

export async function selectObject(
  client: pg.PoolClient | pg.Pool,
  bucket: string,
  key: string,
): Promise<ObjectRow[]> {
  const { rows } = await client.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, key],
  );
  return rows;
}

/** The download headers Storage sends (its stored type, caching, ETag, length, nosniff). */
function objectHeaders(object: ObjectRow, url: URL, key: string): Record<string, string> {
  const metadata = object.metadata ?? {};
  const headers: Record<string, string> = {
    'Content-Type': metadata.mimetype ?? 'application/octet-stream',
    'Cache-Control': metadata.cacheControl ?? 'no-cache',
    ETag: metadata.eTag ?? '',
    'Content-Length': String(metadata.size ?? 0),
    'Last-Modified': new Date(metadata.lastModified ?? object.updated_at).toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  };
  // `?download` (the key's file name) or `?download=<name>`: saved, not shown, by browsers.
  const download = url.searchParams.get('download');
  if (download !== null) {
    const filename = download || key.split('/').pop() || key;
    headers['Content-Disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
  }
  return headers;
}

/** Answers the object's bytes (or, for HEAD, its headers alone). */
export async function sendObject(
  runtime: StorageRuntime,
  res: ServerResponse,
  method: string,
  url: URL,
  bucket: string,
  object: ObjectRow,
) {
  const headers = objectHeaders(object, url, object.name);
  if (method === 'HEAD') {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  const file = runtime.files.open(bucket, object.name, object.version);
  await new Promise<void>((resolve, reject) => {
    file.once('open', () => {
      res.writeHead(200, headers);
      file.pipe(res);
    });
    file.once('error', reject);
    res.once('close', () => {
      file.destroy();
      resolve();
    });
  });
}

export async function download(runtime: StorageRuntime, call: StorageCall) {
  const object = await visibleObject(runtime, call, 'storage.object.get_authenticated', true);
  await sendObject(runtime, call.res, call.req.method ?? 'GET', call.url, call.bucket, object);
}

/** GET/HEAD `/object/public/{bucket}/{key}`: a public bucket's objects, readable by URL alone. */
export async function downloadPublic(runtime: StorageRuntime, call: StorageCall) {
  const bucket = await findBucket(runtime, call.bucket);
  if (!bucket?.public) throw errors.noSuchBucket();
  checkKey(call.key);
  const [object] = await selectObject(runtime.adminPool, call.bucket, call.key);
  if (!object) throw errors.noSuchKey();
  await sendObject(runtime, call.res, call.req.method ?? 'GET', call.url, call.bucket, object);
}

/** GET/HEAD `/object/info/{bucket}/{key}` (storage-js `info()` and, with HEAD, `exists()`). */
export async function info(runtime: StorageRuntime, call: StorageCall) {
  const object = await visibleObject(runtime, call, 'storage.object.info');
  if (call.req.method === 'HEAD') {
    call.res.writeHead(200, objectHeaders(object, call.url, object.name));
    call.res.end();
    return;
  }
  const metadata = object.metadata ?? {};
  sendJson(call.res, 200, {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: call.bucket,
    size: metadata.size ?? null,
    content_type: metadata.mimetype ?? null,
    cache_control: metadata.cacheControl ?? null,
    etag: metadata.eTag ?? null,
    metadata: object.user_metadata ?? {},
    last_modified: metadata.lastModified ?? object.updated_at,
    created_at: object.created_at,
  });
}

const LIST_SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

/**
 * POST `/object/list/{bucket}`: the entries one level below `prefix`, as `storage.search` lists
 * them: folders (`id` null) and the visible objects, filtered by `search`, sorted and paged.
 */
export async function list(runtime: StorageRuntime, call: StorageCall) {
  const body = await readJsonObject(call.req);
  if (typeof body.prefix !== 'string') {
    throw errors.invalidRequest("body must have required property 'prefix'");
  }
  if (!(await findBucket(runtime, call.bucket))) throw errors.noSuchBucket();
  const prefix = body.prefix === '' || body.prefix.endsWith('/') ? body.prefix : `${body.prefix}/`;
  const limit = Number.isInteger(body.limit) ? (body.limit as number) : 100;
  const offset = Number.isInteger(body.offset) ? (body.offset as number) : 0;
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = typeof sortBy.column === 'string' ? sortBy.column : 'name';
  if (!LIST_SORT_COLUMNS.has(column))
    throw errors.invalidRequest(`Invalid sortBy column ${column}`);
  const order = String(sortBy.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
  const search = typeof body.search === 'string' ? body.search : '';
  const rows = await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.object.list' },
    async (client) =>
      (
        await client.query(
          `with below as (
             select substr(name, char_length($2) + 1) as rest, id, updated_at, created_at,
               last_accessed_at, metadata
             from storage.objects
             where bucket_id = $1 and left(name, char_length($2)) = $2
           ), entries as (
             select split_part(rest, '/', 1) as name, null::uuid as id,
               null::timestamptz as updated_at, null::timestamptz as created_at,
               null::timestamptz as last_accessed_at, null::jsonb as metadata
             from below where position('/' in rest) > 0
             group by split_part(rest, '/', 1)
             union all
             select rest, id, updated_at, created_at, last_accessed_at, metadata
             from below where position('/' in rest) = 0
           )
           select * from entries
           where name ilike $3 || '%'
           order by ${column} ${order} nulls last, name ${order}
           limit $4 offset $5`,
          [
            call.bucket,
            prefix,
            search.replace(/[\\%_]/g, '\\$&'),
            Math.max(limit, 0),
            Math.max(offset, 0),
          ],
        )
      ).rows,
  );
  sendJson(call.res, 200, rows);
}

/** DELETE `/object/{bucket}` with `{prefixes}`: removes the rows the caller may delete, then their files. */
export async function remove(runtime: StorageRuntime, call: StorageCall) {
  const body = await readJsonObject(call.req);
  const prefixes = body.prefixes;
  if (!Array.isArray(prefixes) || !prefixes.every((p) => typeof p === 'string')) {
    throw errors.invalidRequest("body must have required property 'prefixes'");
  }
  if (prefixes.length < 1 || prefixes.length > 1000) {
    throw errors.invalidRequest('prefixes must have between 1 and 1000 items');
  }
  if (!(await findBucket(runtime, call.bucket))) throw errors.noSuchBucket();
  const rows = await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.object.delete_many', allowDelete: true },
    async (client) =>
      (
        await client.query<ObjectRow & { bucket_id: string; last_accessed_at: Date }>(
          `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
           returning bucket_id, name, id, version, metadata, user_metadata, created_at,
             updated_at, last_accessed_at`,
          [call.bucket, prefixes],
        )
      ).rows,
  );
  for (const row of rows) await runtime.files.remove(call.bucket, row.name, row.version);
  sendJson(call.res, 200, rows);
}
