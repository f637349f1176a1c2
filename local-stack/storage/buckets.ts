// The bucket routes (`/bucket`, `/bucket/{id}`), run as the caller: RLS on storage.buckets decides
// who sees and changes which bucket (service_role bypasses it).
import { sendJson } from '../http.ts';
import { inTransaction, uuidOrNull } from './caller.ts';
import type { StorageCall, StorageRuntime } from './context.ts';
import { errors } from './errors.ts';
import { readJsonObject } from './body.ts';
import { checkBucketName } from './keys.ts';
import { parseSizeLimit } from './limits.ts';

// file_size_limit is a bigint, which node-postgres reads as a string; Storage answers a number.
const BUCKET_COLUMNS = `id, name, owner, public, file_size_limit::float8 as file_size_limit,
  allowed_mime_types, type, created_at, updated_at`;
const SORT_COLUMNS = new Set(['id', 'name', 'created_at', 'updated_at']);

interface BucketSettings {
  public?: boolean;
  fileSizeLimit?: number | null;
  allowedMimeTypes?: string[] | null;
}

/** `public`, `file_size_limit` (bytes or `"20MB"`) and `allowed_mime_types` of a request body. */
function bucketSettings(body: Record<string, unknown>, globalLimit: number): BucketSettings {
  const settings: BucketSettings = {};
  if (body.public !== undefined) {
    if (typeof body.public !== 'boolean') throw errors.invalidRequest('public must be boolean');
    settings.public = body.public;
  }
  if (body.file_size_limit !== undefined) {
    if (body.file_size_limit === null) settings.fileSizeLimit = null;
    else {
      let limit: number;
      try {
        limit = parseSizeLimit(body.file_size_limit);
      } catch {
        throw errors.invalidRequest(
          'file_size_limit must be a size in bytes or a string like 20MB',
        );
      }
      if (limit > globalLimit) {
        throw errors.invalidRequest(
          `file_size_limit exceeds the global limit of ${globalLimit} bytes ([storage] file_size_limit)`,
        );
      }
      settings.fileSizeLimit = limit;
    }
  }
  if (body.allowed_mime_types !== undefined) {
    const types = body.allowed_mime_types;
    if (types !== null && !(Array.isArray(types) && types.every((t) => typeof t === 'string'))) {
      throw errors.invalidRequest('allowed_mime_types must be an array of strings');
    }
    settings.allowedMimeTypes = types as string[] | null;
  }
  return settings;
}

export async function createBucket(runtime: StorageRuntime, call: StorageCall) {
  const body = await readJsonObject(call.req);
  const name = body.name ?? body.id;
  if (typeof name !== 'string')
    throw errors.invalidRequest("body must have required property 'name'");
  const id = typeof body.id === 'string' ? body.id : name;
  checkBucketName(id);
  checkBucketName(name);
  if (body.type !== undefined && body.type !== 'STANDARD') {
    throw errors.notServed(`Buckets of type ${String(body.type)}`);
  }
  const settings = bucketSettings(body, runtime.globalFileSizeLimit);
  await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.bucket.create' },
    async (client) => {
      try {
        await client.query(
          `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit,
             allowed_mime_types)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [
            id,
            name,
            uuidOrNull(call.caller.sub),
            call.caller.sub ?? null,
            settings.public ?? false,
            settings.fileSizeLimit ?? null,
            settings.allowedMimeTypes ?? null,
          ],
        );
      } catch (err) {
        if ((err as { code?: string }).code === '23505') {
          throw errors.alreadyExists('ResourceAlreadyExists');
        }
        throw err;
      }
    },
  );
  sendJson(call.res, 200, { name: id });
}

export async function listBuckets(runtime: StorageRuntime, call: StorageCall) {
  const query = call.url.searchParams;
  const limit = Number(query.get('limit') ?? 'NaN');
  const offset = Number(query.get('offset') ?? 0);
  const sortColumn = query.get('sortColumn') ?? 'name';
  const sortOrder = query.get('sortOrder')?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  if (!SORT_COLUMNS.has(sortColumn))
    throw errors.invalidRequest(`Invalid sortColumn ${sortColumn}`);
  const rows = await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.bucket.list' },
    async (client) =>
      (
        await client.query(
          `select ${BUCKET_COLUMNS} from storage.buckets
           where ($1::text is null or name ilike '%' || $1 || '%')
           order by ${sortColumn} ${sortOrder}
           limit $2 offset $3`,
          [
            query.get('search') || null,
            Number.isInteger(limit) && limit >= 0 ? limit : null,
            Number.isInteger(offset) && offset >= 0 ? offset : 0,
          ],
        )
      ).rows,
  );
  sendJson(call.res, 200, rows);
}

export async function getBucket(runtime: StorageRuntime, call: StorageCall) {
  const rows = await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.bucket.get' },
    async (client) =>
      (
        await client.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [
          call.bucket,
        ])
      ).rows,
  );
  if (!rows[0]) throw errors.noSuchBucket();
  sendJson(call.res, 200, rows[0]);
}

export async function updateBucket(runtime: StorageRuntime, call: StorageCall) {
  const settings = bucketSettings(await readJsonObject(call.req), runtime.globalFileSizeLimit);
  const updated = await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.bucket.update' },
    async (client) =>
      (
        await client.query(
          `update storage.buckets set
             public = case when $2 then $3 else public end,
             file_size_limit = case when $4 then $5 else file_size_limit end,
             allowed_mime_types = case when $6 then $7 else allowed_mime_types end,
             updated_at = now()
           where id = $1`,
          [
            call.bucket,
            settings.public !== undefined,
            settings.public ?? null,
            settings.fileSizeLimit !== undefined,
            settings.fileSizeLimit ?? null,
            settings.allowedMimeTypes !== undefined,
            settings.allowedMimeTypes ?? null,
          ],
        )
      ).rowCount,
  );
  if (!updated) throw errors.noSuchBucket();
  sendJson(call.res, 200, { message: 'Successfully updated' });
}

export async function deleteBucket(runtime: StorageRuntime, call: StorageCall) {
  const { rows } = await runtime.adminPool.query(
    'select 1 from storage.objects where bucket_id = $1 limit 1',
    [call.bucket],
  );
  if (rows.length) throw errors.bucketNotEmpty();
  const deleted = await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.bucket.delete', allowDelete: true },
    async (client) =>
      (await client.query('delete from storage.buckets where id = $1', [call.bucket])).rowCount,
  );
  if (!deleted) throw errors.noSuchBucket();
  sendJson(call.res, 200, { message: 'Successfully deleted' });
}
