// The objects' bytes on disk, under `<dataDir>/storage/objects/<bucket>/<key>/<version>`: each
// write is a new version file (the key is a folder, so `a` and `a/b` can both exist, as on S3).
// Uploads stream to a temporary file, counted and hashed as they pass, and are renamed into place
// only once whole and within the size cap: a failed upload leaves nothing behind.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { errors } from './errors.ts';

/** A whole upload in its temporary file, not yet an object. */
export interface StagedFile {
  tempPath: string;
  size: number;
  /** S3's ETag of a single-part upload: the MD5 of the bytes, quoted. */
  eTag: string;
}

export class ObjectFiles {
  private objectsDir: string;
  private tempDir: string;

  constructor(storageDir: string) {
    this.objectsDir = path.join(storageDir, 'objects');
    this.tempDir = path.join(storageDir, 'uploads');
  }

  /** Starts empty: a new database has no objects, so files of an older one are dropped. */
  async prepare(fresh: boolean) {
    if (fresh) await rm(this.objectsDir, { recursive: true, force: true });
    await rm(this.tempDir, { recursive: true, force: true });
    await mkdir(this.objectsDir, { recursive: true });
    await mkdir(this.tempDir, { recursive: true });
  }

  /** Keys and bucket names are checked first (keys.ts): no segment is empty, `.` or `..`. */
  pathOf(bucket: string, key: string, version: string): string {
    return path.join(this.objectsDir, bucket, ...key.split('/'), version);
  }

  /**
   * Streams `body` to a temporary file. Past `limit` bytes nothing more is written but the body
   * is still read to its end (answering before would reset the client's connection, losing the
   * answer), then the file is removed and the upload is an EntityTooLarge.
   */
  async stage(body: AsyncIterable<Buffer>, limit: number): Promise<StagedFile> {
    const tempPath = path.join(this.tempDir, randomUUID());
    const hash = createHash('md5');
    let size = 0;
    let tooLarge = false;
    async function* counted() {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > limit) tooLarge = true;
        if (tooLarge) continue;
        hash.update(chunk);
        yield chunk;
      }
    }
    try {
      await pipeline(counted, createWriteStream(tempPath));
    } catch (err) {
      await unlink(tempPath).catch(() => undefined);
      throw err;
    }
    if (tooLarge) {
      await unlink(tempPath).catch(() => undefined);
      throw errors.entityTooLarge();
    }
    return { tempPath, size, eTag: `"${hash.digest('hex')}"` };
  }

  async place(staged: StagedFile, bucket: string, key: string, version: string) {
    const target = this.pathOf(bucket, key, version);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(staged.tempPath, target);
  }

  async discard(staged: StagedFile) {
    await unlink(staged.tempPath).catch(() => undefined);
  }

  /** Removes a version's file and the folders it leaves empty, up to the bucket's. */
  async remove(bucket: string, key: string, version: string) {
    const file = this.pathOf(bucket, key, version);
    await unlink(file).catch(() => undefined);
    const bucketDir = path.join(this.objectsDir, bucket);
    for (
      let dir = path.dirname(file);
      dir.startsWith(bucketDir + path.sep);
      dir = path.dirname(dir)
    ) {
      // A folder still holding another object's files stays (rmdir refuses it).
      if (
        !(await rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }

  async exists(bucket: string, key: string, version: string): Promise<boolean> {
    return stat(this.pathOf(bucket, key, version)).then(
      () => true,
      () => false,
    );
  }

  open(bucket: string, key: string, version: string): ReadStream {
    return createReadStream(this.pathOf(bucket, key, version));
  }
}
