// The file sweep, run by each scheduled pass (`_deliver`): Storage refuses deletes made in SQL, so
// the objects of files the database let go of are removed here, through the Storage API.
//  - Deleted files: deleting an entry (by its owner, with its form or account, by retention or
//    forward-only mode) records its files' keys in private.deleted_files; a batch of them is
//    removed, and only once Storage confirmed are the rows deleted.
//  - Pending uploads: a post that died after writing objects leaves its private.pending_uploads
//    row; after an hour (no post runs that long) the objects under the entry's folder are listed
//    and removed, then the row. An entry that committed keeps its objects: only its row goes.
// A failure leaves its rows for the next pass. The database calls go through an `rpc` client (the
// function's direct connection, or supabase-js in tests); the store is Storage's HTTP API.
import type { RpcClient } from '../../_shared/outbox/store.ts';
import type { ListingFileStore } from './file-store.ts';
import { entryFolder } from './receive.ts';

const FILE_SWEEP = {
  /** Keys of deleted files per batch (one Storage remove call takes at most 1 000). */
  deletedBatch: 500,
  /** Batches of deleted files one pass removes at most. */
  deletedBatchesPerPass: 4,
  /** Pending uploads one pass looks at. */
  pendingBatch: 20,
  /** Age of a pending upload before its objects are taken for orphans. */
  pendingAfterSeconds: 3600,
  /** Objects listed per call in an entry's folder (a post writes at most UPLOADS.maxFiles). */
  listLimit: 100,
  /** List-and-remove rounds per folder before it is left for the next pass. */
  roundsPerFolder: 5,
} as const;

/** A pending upload as claim_pending_uploads() answers it. */
export interface PendingUpload {
  entry_id: string;
  user_id: string;
  form_id: string;
  /** Its entry exists: the objects belong to it and are kept. */
  committed: boolean;
}

/** The database side of the sweep (16-uploads.sql, its last section). */
export interface SweepDatabase {
  claimDeletedFiles(limit: number): Promise<string[]>;
  /** Deletes the rows of these keys once their objects are gone; how many it deleted. */
  finishDeletedFiles(keys: readonly string[]): Promise<number>;
  claimPendingUploads(olderThanSeconds: number, limit: number): Promise<PendingUpload[]>;
  /** Deletes these entries' pending rows; how many it deleted. */
  finishPendingUploads(entryIds: readonly string[]): Promise<number>;
}

/** What one pass did (the `_deliver` answer's `files`; a type, so it is a record of counts). */
export type FileSweepReport = {
  /** Objects of deleted files removed, their rows gone. */
  deletedFiles: number;
  /** Pending uploads cleared after their objects were removed. */
  pendingCleared: number;
  /** Objects removed under those entries' folders. */
  pendingObjects: number;
  /** Pending rows of committed entries dropped, their objects kept. */
  pendingKept: number;
  /** Steps that failed and were left for the next pass. */
  failed: number;
};

export type SweepFiles = Pick<ListingFileStore, 'list' | 'remove'>;

interface FileSweepDeps {
  db: SweepDatabase;
  files: SweepFiles;
  log(message: string): void;
  limits?: Partial<typeof FILE_SWEEP>;
}

export function sweepDatabase(client: RpcClient): SweepDatabase {
  const call = async (name: string, args: Record<string, unknown>) => {
    const { data, error } = await client.rpc(name, args);
    if (error) throw new Error(`${name}: ${error.message}`);
    return data;
  };
  return {
    claimDeletedFiles: async (limit) =>
      ((await call('claim_deleted_files', { p_limit: limit })) ?? []) as string[],
    finishDeletedFiles: async (keys) =>
      Number((await call('finish_deleted_files', { p_keys: keys })) ?? 0),
    claimPendingUploads: async (olderThanSeconds, limit) =>
      ((await call('claim_pending_uploads', {
        p_older_than_seconds: olderThanSeconds,
        p_limit: limit,
      })) ?? []) as PendingUpload[],
    finishPendingUploads: async (entryIds) =>
      Number((await call('finish_pending_uploads', { p_entry_ids: entryIds })) ?? 0),
  };
}

/**
 * Removes every object directly under `folder`, a page at a time (each page listed again from the
 * start, as the last one is gone); how many it removed. Throws when Storage fails, or when the
 * folder is still not empty after `rounds` pages.
 */
async function emptyFolder(
  files: SweepFiles,
  folder: string,
  pageSize: number,
  rounds: number,
): Promise<number> {
  let removed = 0;
  for (let round = 0; round < rounds; round++) {
    const keys = await files.list(folder, pageSize);
    if (keys.length > 0) await files.remove(keys);
    removed += keys.length;
    if (keys.length < pageSize) return removed;
  }
  throw new Error(`${folder} still holds objects after ${rounds} rounds`);
}

/** The sweep: one call per scheduled pass; never rejects (what failed waits for the next). */
export function createFileSweep(deps: FileSweepDeps): () => Promise<FileSweepReport> {
  const limits = { ...FILE_SWEEP, ...deps.limits };
  const { db, files, log } = deps;

  async function sweepDeleted(report: FileSweepReport) {
    for (let batch = 0; batch < limits.deletedBatchesPerPass; batch++) {
      const keys = await db.claimDeletedFiles(limits.deletedBatch);
      if (keys.length === 0) return;
      // Storage first: the rows are the only record of these objects.
      await files.remove(keys);
      await db.finishDeletedFiles(keys);
      report.deletedFiles += keys.length;
      if (keys.length < limits.deletedBatch) return;
    }
  }

  async function sweepPending(report: FileSweepReport) {
    const pending = await db.claimPendingUploads(limits.pendingAfterSeconds, limits.pendingBatch);
    const done: string[] = [];
    for (const upload of pending) {
      if (upload.committed) {
        report.pendingKept++;
        done.push(upload.entry_id);
        continue;
      }
      const folder = entryFolder({
        userId: upload.user_id,
        formId: upload.form_id,
        entryId: upload.entry_id,
      });
      try {
        report.pendingObjects += await emptyFolder(
          files,
          folder,
          limits.listLimit,
          limits.roundsPerFolder,
        );
        report.pendingCleared++;
        done.push(upload.entry_id);
      } catch (err) {
        report.failed++;
        log(`file sweep: ${folder} kept for the next pass: ${(err as Error).message}`);
      }
    }
    if (done.length > 0) await db.finishPendingUploads(done);
  }

  return async () => {
    const report: FileSweepReport = {
      deletedFiles: 0,
      pendingCleared: 0,
      pendingObjects: 0,
      pendingKept: 0,
      failed: 0,
    };
    // Each step on its own: one failing never keeps the other from running.
    for (const [what, step] of [
      ['deleted files', sweepDeleted],
      ['pending uploads', sweepPending],
    ] as const) {
      try {
        await step(report);
      } catch (err) {
        report.failed++;
        log(`file sweep: ${what} kept for the next pass: ${(err as Error).message}`);
      }
    }
    return report;
  };
}
