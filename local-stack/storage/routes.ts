// Storage's routes (storage/v1 `src/http/routes/**`) and which of them the local stack serves.
// Anything else under /storage/v1 is refused in Storage's error shape, naming what was asked.
import { Router } from '../router.ts';
import { createBucket, deleteBucket, getBucket, listBuckets, updateBucket } from './buckets.ts';
import type { StorageCall, StorageRuntime } from './context.ts';
import { errors } from './errors.ts';
import { download, downloadPublic, info, list, remove } from './objects.ts';
import { downloadSigned, signDownload, signDownloads, signUpload, uploadSigned } from './signed.ts';
import { storeUpload, type UploadMode } from './upload.ts';
import { sendJson } from '../http.ts';

export interface StorageRoute {
  /** Routes that take a token in the URL or serve public buckets need no JWT. */
  open?: boolean;
  run(runtime: StorageRuntime, call: StorageCall): Promise<void>;
}

function upload(mode: 'create' | 'update'): StorageRoute {
  return {
    async run(runtime, call) {
      const upsert = mode === 'create' && call.req.headers['x-upsert'] === 'true';
      const uploadMode: UploadMode = upsert ? 'upsert' : mode;
      const result = await storeUpload(runtime, call.req, {
        bucket: call.bucket,
        key: call.key,
        mode: uploadMode,
        caller: call.caller,
        owner: call.caller.sub,
      });
      sendJson(call.res, 200, result);
    },
  };
}

const route = (run: StorageRoute['run'], open = false): StorageRoute => ({ run, open });

/** Known Storage features the local stack does not serve, by path. */
const UNSERVED: [string, string][] = [
  ['/bucket/:bucket/empty', 'Emptying a bucket (POST /bucket/{id}/empty)'],
  ['/object/move', 'Moving objects (POST /object/move)'],
  ['/object/copy', 'Copying objects (POST /object/copy)'],
  ['/object/list-v2/:bucket', 'Cursor listing (POST /object/list-v2/{bucket})'],
  ['/upload/resumable', 'Resumable (TUS) uploads (/upload/resumable)'],
  ['/upload/resumable/*', 'Resumable (TUS) uploads (/upload/resumable)'],
  ['/render/image/*', 'Image transformations (/render/image)'],
  ['/s3/*', 'The S3 protocol (/s3)'],
  ['/iceberg/*', 'Analytics buckets (/iceberg)'],
  ['/vector/*', 'Vector buckets (/vector)'],
];

export function storageRouter(): Router<StorageRoute | string> {
  const router = new Router<StorageRoute | string>({ ignoreTrailingSlash: true });
  router.on('/bucket', { GET: route(listBuckets), POST: route(createBucket) });
  router.on('/bucket/:bucket', {
    GET: route(getBucket),
    PUT: route(updateBucket),
    DELETE: route(deleteBucket),
  });
  router.on('/object/list/:bucket', { POST: route(list) });
  router.on('/object/sign/:bucket', { POST: route(signDownloads) });
  router.on('/object/sign/:bucket/*', {
    POST: route(signDownload),
    GET: route(downloadSigned, true),
    HEAD: route(downloadSigned, true),
  });
  router.on('/object/upload/sign/:bucket/*', {
    POST: route(signUpload),
    PUT: route(uploadSigned, true),
  });
  router.on('/object/info/:bucket/*', { GET: route(info), HEAD: route(info) });
  router.on('/object/authenticated/:bucket/*', { GET: route(download), HEAD: route(download) });
  router.on('/object/public/:bucket/*', {
    GET: route(downloadPublic, true),
    HEAD: route(downloadPublic, true),
  });
  router.on('/object/:bucket/*', {
    POST: upload('create'),
    PUT: upload('update'),
    GET: route(download),
    HEAD: route(download),
  });
  router.on('/object/:bucket', { DELETE: route(remove) });
  for (const [path, what] of UNSERVED) router.on(path, { all: what });
  return router;
}

/** The refusal for a route the local stack does not serve. */
export function notServed(method: string, path: string, what?: string) {
  return errors.notServed(what ?? `${method} /storage/v1${path}`);
}
