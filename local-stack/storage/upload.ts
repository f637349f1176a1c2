// Uploads (POST and PUT `/object/{bucket}/{key}`, and the PUT of a signed upload URL): the body,
// multipart or raw, streams to a temporary file within the size cap; then, in one transaction as
// the uploader, the row is written (RLS decides) and the file renamed into place before the commit.
// Whatever fails leaves neither a row nor a file.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import { inTransaction, uuidOrNull, type Caller } from './caller.ts';
import { findBucket, type StorageRuntime } from './context.ts';
import { errors, StorageError } from './errors.ts';
import type { StagedFile } from './files.ts';
import { checkKey } from './keys.ts';
import { isMimeTypeAllowed, uploadSizeLimit } from './limits.ts';
import { multipartBoundary, openMultipartFile } from './multipart.ts';

export type UploadMode = 'create' | 'upsert' | 'update';

export interface UploadRequest {
  bucket: string;
  key: string;
  mode: UploadMode;
  /** Runs as this caller (RLS applies); without one as the admin, for signed uploads. */
  caller?: Caller;
  /** The object's owner: the caller's `sub`, or the signed upload token's `owner`. */
  owner: string | undefined;
}

/** The object's bytes and what the request says about them, before anything is stored. */
interface UploadBody {
  body: AsyncIterable<Buffer>;
  mimeType: string;
  cacheControl: string;
  userMetadata: unknown;
}

/** Storage's readings of the two body kinds (storage/v1 `src/storage/uploader.ts`). */
async function uploadBody(req: IncomingMessage): Promise<UploadBody> {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (boundary) {
    const file = await openMultipartFile(req, boundary);
    const cacheControl = file.fields.get('cacheControl');
    return {
      body: file.body,
      mimeType: file.fields.get('contentType') || file.contentType || 'text/plain',
      cacheControl: cacheControl ? `max-age=${cacheControl}` : 'no-cache',
      userMetadata: parseUserMetadata(file.fields.get('metadata')),
    };
  }
  const encoded = req.headers['x-metadata'];
  return {
    body: req,
    mimeType: req.headers['content-type'] || 'application/octet-stream',
    cacheControl: req.headers['cache-control'] || 'no-cache',
    userMetadata: parseUserMetadata(
      typeof encoded === 'string' ? Buffer.from(encoded, 'base64').toString('utf8') : undefined,
    ),
  };
}

/** User metadata is JSON; what does not parse is dropped, as Storage drops it. */
function parseUserMetadata(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Reads what is left of a refused upload, so the answer reaches the client (http.ts). */
async function discard(body: AsyncIterable<Buffer>) {
  for await (const chunk of body) void chunk;
}

function metadataOf(staged: StagedFile, upload: UploadBody) {
  const now = new Date().toISOString();
  return {
    eTag: staged.eTag,
    size: staged.size,
    mimetype: upload.mimeType,
    cacheControl: upload.cacheControl,
    lastModified: now,
    contentLength: staged.size,
    httpStatusCode: 200,
  };
}

/** Writes the row; answers the object's id and the version it replaced, if any. */
async function writeRow(
  client: pg.PoolClient,
  request: UploadRequest,
  version: string,
  metadata: object,
  userMetadata: unknown,
): Promise<{ id: string; replaced: string | null }> {
  const owner = request.owner ?? null;
  const values = [
    request.bucket,
    request.key,
    uuidOrNull(owner),
    owner,
    metadata,
    userMetadata,
    version,
  ];
  if (request.mode === 'create') {
    // No RETURNING: it would need a SELECT policy too, and an upload needs INSERT alone.
    const id = randomUUID();
    await client.query(
      `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata,
         version)
       values ($8, $1, $2, $3, $4, $5, $6, $7)`,
      [...values, id],
    );
    return { id, replaced: null };
  }
  // The version whose file goes once the new one is committed.
  const { rows: existing } = await client.query<{ version: string | null }>(
    'select version from storage.objects where bucket_id = $1 and name = $2',
    [request.bucket, request.key],
  );
  const replaced = existing[0]?.version ?? null;
  if (request.mode === 'update') {
    const { rows } = await client.query<{ id: string }>(
      `update storage.objects set owner = $3, owner_id = $4, metadata = $5, user_metadata = $6,
         version = $7, updated_at = now(), last_accessed_at = now()
       where bucket_id = $1 and name = $2 returning id`,
      values,
    );
    if (!rows[0]) throw errors.noSuchKey();
    return { id: rows[0].id, replaced };
  }
  // An upsert needs SELECT and UPDATE besides INSERT, as on Supabase.
  const { rows } = await client.query<{ id: string }>(
    `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (bucket_id, name) do update set owner = excluded.owner,
       owner_id = excluded.owner_id, metadata = excluded.metadata,
       user_metadata = excluded.user_metadata, version = excluded.version,
       updated_at = now(), last_accessed_at = now()
     returning id`,
    values,
  );
  return { id: rows[0].id, replaced };
}

/** Stores the request's body as the object; answers Storage's `{Id, Key}`. */
export async function storeUpload(
  runtime: StorageRuntime,
  req: IncomingMessage,
  request: UploadRequest,
): Promise<{ Id: string; Key: string }> {
  let upload: UploadBody | undefined;
  let staged: StagedFile | undefined;
  let placed: string | undefined;
  try {
    const bucket = await findBucket(runtime, request.bucket);
    if (!bucket) throw errors.noSuchBucket();
    checkKey(request.key);
    upload = await uploadBody(req);
    if (!isMimeTypeAllowed(upload.mimeType, bucket.allowed_mime_types)) {
      throw errors.invalidMimeType(upload.mimeType);
    }
    const limit = uploadSizeLimit(
      runtime.globalFileSizeLimit,
      bucket.file_size_limit === null ? null : Number(bucket.file_size_limit),
    );
    const stagedFile = await runtime.files.stage(upload.body, limit);
    staged = stagedFile;
    const version = randomUUID();
    const metadata = metadataOf(stagedFile, upload);
    const userMetadata = upload.userMetadata;
    const pool = request.caller ? runtime.pool : runtime.adminPool;
    const operation = request.mode === 'update' ? 'storage.object.update' : 'storage.object.upload';
    const { id, replaced } = await inTransaction(
      pool,
      { caller: request.caller, operation },
      async (client) => {
        const row = await writeRow(client, request, version, metadata, userMetadata);
        // Renamed before the commit: a committed row always has its file.
        await runtime.files.place(stagedFile, request.bucket, request.key, version);
        placed = version;
        return row;
      },
    );
    placed = undefined;
    if (replaced && replaced !== version) {
      await runtime.files.remove(request.bucket, request.key, replaced);
    }
    return { Id: id, Key: `${request.bucket}/${request.key}` };
  } catch (err) {
    // The body is read to its end before answering, whatever went wrong.
    if (upload && !staged) await discard(upload.body).catch(() => undefined);
    else if (!upload && !req.readableEnded) await discard(req).catch(() => undefined);
    if (staged) await runtime.files.discard(staged);
    if (placed) await runtime.files.remove(request.bucket, request.key, placed);
    if ((err as { code?: string }).code === '23505' && !(err instanceof StorageError)) {
      throw errors.alreadyExists('KeyAlreadyExists');
    }
    throw err;
  }
}
