// What Storage's handlers share: its pools, the objects' files and its settings.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { Caller } from './caller.ts';
import type { ObjectFiles } from './files.ts';

export interface StorageRuntime {
  /** Logged in as `authenticator`: requests run as the caller's role. */
  pool: pg.Pool;
  /** The superuser's pool, for what Storage does as its own admin (signed URLs, bucket lookups). */
  adminPool: pg.Pool;
  files: ObjectFiles;
  urlSigningSecret: Uint8Array;
  /** `[storage] file_size_limit`, in bytes. */
  globalFileSizeLimit: number;
}

/** One request, its route's parameters decoded. */
export interface StorageCall {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  bucket: string;
  /** The object's key (`folder/file.png`), empty for routes without one. */
  key: string;
  /** Set for the routes that need a JWT. */
  caller: Caller;
}

/** A bucket as object routes read it (as the admin: object calls need no right on buckets). */
export interface BucketRow {
  id: string;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
}

export async function findBucket(runtime: StorageRuntime, id: string): Promise<BucketRow | null> {
  const { rows } = await runtime.adminPool.query<BucketRow>(
    'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    [id],
  );
  return rows[0] ?? null;
}
