// Signed URLs. Creating one reads (download) or trial-writes (upload) the object under the
// caller's RLS first, so a URL is only ever signed for what the caller could do themselves; using
// one needs no JWT, only the token, which names the object it is for.
import { sendJson } from '../http.ts';
import { inTransaction } from './caller.ts';
import { findBucket, type StorageCall, type StorageRuntime } from './context.ts';
import { errors } from './errors.ts';
import { readJsonObject } from './body.ts';
import { checkKey } from './keys.ts';
import { selectObject, sendObject, visibleObject } from './objects.ts';
import { signToken, verifyToken } from './signing.ts';
import { storeUpload } from './upload.ts';

/**
 * A signed upload URL's life: Storage's default `UPLOAD_SIGNED_URL_EXPIRATION_TIME` is 60 s, the
 * hosted platform's (and storage-js's documented) 2 hours; the local stack takes the hosted one.
 */
const UPLOAD_URL_SECONDS = 2 * 60 * 60;

function expiresInOf(body: Record<string, unknown>): number {
  const expiresIn = Number(body.expiresIn);
  if (!Number.isInteger(expiresIn) || expiresIn < 1) {
    throw errors.invalidRequest('expiresIn must be a whole number of seconds, at least 1');
  }
  return expiresIn;
}

/** POST `/object/sign/{bucket}/{key}` → `{signedURL}` (relative to /storage/v1). */
export async function signDownload(runtime: StorageRuntime, call: StorageCall) {
  const expiresIn = expiresInOf(await readJsonObject(call.req));
  await visibleObject(runtime, call, 'storage.object.sign');
  const url = `${call.bucket}/${call.key}`;
  const token = await signToken({ url }, runtime.urlSigningSecret, expiresIn);
  sendJson(call.res, 200, { signedURL: `/object/sign/${url}?token=${token}` });
}

/** POST `/object/sign/{bucket}` with `{expiresIn, paths}` → one entry per path. */
export async function signDownloads(runtime: StorageRuntime, call: StorageCall) {
  const body = await readJsonObject(call.req);
  const expiresIn = expiresInOf(body);
  const paths = body.paths;
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) {
    throw errors.invalidRequest("body must have required property 'paths'");
  }
  if (!(await findBucket(runtime, call.bucket))) throw errors.noSuchBucket();
  const visible = await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.object.sign' },
    async (client) =>
      new Set(
        (
          await client.query<{ name: string }>(
            'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
            [call.bucket, paths],
          )
        ).rows.map((r) => r.name),
      ),
  );
  const entries = [];
  for (const path of paths as string[]) {
    if (!visible.has(path)) {
      entries.push({
        error: 'Either the object does not exist or you do not have access to it',
        path,
        signedURL: null,
      });
      continue;
    }
    const url = `${call.bucket}/${path}`;
    const token = await signToken({ url }, runtime.urlSigningSecret, expiresIn);
    entries.push({ error: null, path, signedURL: `/object/sign/${url}?token=${token}` });
  }
  sendJson(call.res, 200, entries);
}

/** GET `/object/sign/{bucket}/{key}?token=`: the object, for whoever holds the token. */
export async function downloadSigned(runtime: StorageRuntime, call: Omit<StorageCall, 'caller'>) {
  checkKey(call.key);
  await verifyToken(
    call.url.searchParams.get('token'),
    runtime.urlSigningSecret,
    `${call.bucket}/${call.key}`,
  );
  const [object] = await selectObject(runtime.adminPool, call.bucket, call.key);
  if (!object) throw errors.noSuchKey();
  await sendObject(runtime, call.res, call.req.method ?? 'GET', call.url, call.bucket, object);
}

/**
 * POST `/object/upload/sign/{bucket}/{key}` (`x-upsert: true` to allow overwriting): a trial
 * insert as the caller, rolled back, then a token carrying the owner and the upsert choice.
 */
export async function signUpload(runtime: StorageRuntime, call: StorageCall) {
  await readJsonObject(call.req);
  if (!(await findBucket(runtime, call.bucket))) throw errors.noSuchBucket();
  checkKey(call.key);
  const upsert = call.req.headers['x-upsert'] === 'true';
  const rolledBack = new Error('trial insert');
  await inTransaction(
    runtime.pool,
    { caller: call.caller, operation: 'storage.object.sign_upload_url' },
    async (client) => {
      await client.query(
        `insert into storage.objects (bucket_id, name, owner_id, metadata) values ($1, $2, $3, '{}')
         ${upsert ? 'on conflict (bucket_id, name) do update set owner_id = excluded.owner_id' : ''}`,
        [call.bucket, call.key, call.caller.sub ?? null],
      );
      throw rolledBack; // never kept: the object is written when the URL is used
    },
  ).catch((err: unknown) => {
    if (err !== rolledBack) throw err;
  });
  const url = `${call.bucket}/${call.key}`;
  const token = await signToken(
    { url, owner: call.caller.sub, upsert },
    runtime.urlSigningSecret,
    UPLOAD_URL_SECONDS,
  );
  sendJson(call.res, 200, { url: `/object/upload/sign/${url}?token=${token}`, token });
}

/** PUT `/object/upload/sign/{bucket}/{key}?token=`: the upload, as the token's owner. */
export async function uploadSigned(runtime: StorageRuntime, call: Omit<StorageCall, 'caller'>) {
  let claims: Record<string, unknown>;
  try {
    claims = await verifyToken(
      call.url.searchParams.get('token'),
      runtime.urlSigningSecret,
      `${call.bucket}/${call.key}`,
    );
  } catch (err) {
    for await (const chunk of call.req) void chunk;
    throw err;
  }
  const result = await storeUpload(runtime, call.req, {
    bucket: call.bucket,
    key: call.key,
    mode: claims.upsert === true ? 'upsert' : 'create',
    owner: typeof claims.owner === 'string' ? claims.owner : undefined,
  });
  sendJson(call.res, 200, { Key: result.Key });
}
