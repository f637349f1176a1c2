// @vitest-environment node
// The sweep's order of work over fakes: Storage is asked before any row is deleted, a failure
// leaves its rows, one step failing never stops the other. tests/endpoint/uploads-lifecycle.test.ts
// runs it against the local stack's Postgres and Storage.
import { describe, expect, it } from 'vitest';
import {
  createFileSweep,
  type PendingUpload,
  type SweepDatabase,
  type SweepFiles,
} from './sweep.ts';

const U = '00000000-0000-4000-8000-000000000001';
const F = '00000000-0000-4000-8000-000000000002';

function fakes(opts: {
  deleted?: string[];
  pending?: PendingUpload[];
  objects?: Record<string, string[]>;
  failRemove?: (keys: readonly string[]) => boolean;
  failClaimDeleted?: boolean;
}) {
  const calls: string[] = [];
  const deleted = [...(opts.deleted ?? [])];
  const pending = [...(opts.pending ?? [])];
  const objects = new Map(Object.entries(opts.objects ?? {}));
  const db: SweepDatabase = {
    async claimDeletedFiles(limit) {
      calls.push('claim deleted');
      if (opts.failClaimDeleted) throw new Error('database away');
      return deleted.slice(0, limit);
    },
    async finishDeletedFiles(keys) {
      calls.push(`finish deleted ${keys.join(',')}`);
      for (const key of keys) deleted.splice(deleted.indexOf(key), 1);
      return keys.length;
    },
    async claimPendingUploads() {
      calls.push('claim pending');
      return pending;
    },
    async finishPendingUploads(ids) {
      calls.push(`finish pending ${ids.join(',')}`);
      return ids.length;
    },
  };
  const files: SweepFiles = {
    async list(folder, limit) {
      calls.push(`list ${folder}`);
      return (objects.get(folder) ?? []).slice(0, limit).map((name) => `${folder}/${name}`);
    },
    async remove(keys) {
      calls.push(`remove ${keys.join(',')}`);
      if (opts.failRemove?.(keys)) throw new Error('Storage refused');
      for (const key of keys) {
        const folder = key.slice(0, key.lastIndexOf('/'));
        const name = key.slice(key.lastIndexOf('/') + 1);
        objects.set(
          folder,
          (objects.get(folder) ?? []).filter((n) => n !== name),
        );
      }
    },
  };
  const logs: string[] = [];
  return { db, files, calls, logs, deleted, log: (m: string) => logs.push(m) };
}

const upload = (entry: string, committed = false): PendingUpload => ({
  entry_id: entry,
  user_id: U,
  form_id: F,
  committed,
});

describe('the file sweep', () => {
  it('removes the objects of deleted files before deleting their rows, a batch at a time', async () => {
    const f = fakes({ deleted: ['a/1', 'a/2', 'b/1'] });
    const report = await createFileSweep({ ...f, limits: { deletedBatch: 2 } })();
    expect(report.deletedFiles).toBe(3);
    expect(f.calls).toEqual([
      'claim deleted',
      'remove a/1,a/2',
      'finish deleted a/1,a/2',
      'claim deleted',
      'remove b/1',
      'finish deleted b/1',
      'claim pending',
    ]);
    expect(f.deleted).toEqual([]);
  });

  it('keeps the rows when Storage fails, and still clears pending uploads', async () => {
    const f = fakes({
      deleted: ['a/1'],
      pending: [upload('e1')],
      objects: { [`${U}/${F}/e1`]: ['1-x.png'] },
      failRemove: (keys) => keys.includes('a/1'),
    });
    const report = await createFileSweep(f)();
    expect(report).toEqual({
      deletedFiles: 0,
      pendingCleared: 1,
      pendingObjects: 1,
      pendingKept: 0,
      failed: 1,
    });
    expect(f.deleted).toEqual(['a/1']);
    expect(f.calls).not.toContain('finish deleted a/1');
    expect(f.calls).toContain('finish pending e1');
    expect(f.logs.join('\n')).toMatch(/deleted files kept for the next pass: Storage refused/);
  });

  it('never lists nor removes the objects of a committed entry; its record goes', async () => {
    const f = fakes({ pending: [upload('kept', true)], objects: { [`${U}/${F}/kept`]: ['1-x'] } });
    const report = await createFileSweep(f)();
    expect(report.pendingKept).toBe(1);
    expect(f.calls.filter((c) => c.startsWith('list') || c.startsWith('remove'))).toEqual([]);
    expect(f.calls).toContain('finish pending kept');
  });

  it('keeps the record of a folder it could not empty, and clears the others', async () => {
    const f = fakes({
      pending: [upload('bad'), upload('good')],
      objects: { [`${U}/${F}/bad`]: ['1-x'], [`${U}/${F}/good`]: ['1-x', '2-y'] },
      failRemove: (keys) => keys.some((k) => k.includes('/bad/')),
    });
    const report = await createFileSweep(f)();
    expect(report).toMatchObject({ pendingCleared: 1, pendingObjects: 2, failed: 1 });
    expect(f.calls).toContain('finish pending good');
  });

  it('empties a folder page by page, and gives up after its rounds', async () => {
    const names = Array.from({ length: 5 }, (_, i) => `${i}-x`);
    const f = fakes({ pending: [upload('many')], objects: { [`${U}/${F}/many`]: names } });
    const report = await createFileSweep({ ...f, limits: { listLimit: 2 } })();
    expect(report.pendingObjects).toBe(5);
    const g = fakes({ pending: [upload('many')], objects: { [`${U}/${F}/many`]: names } });
    const stuck = await createFileSweep({ ...g, limits: { listLimit: 2, roundsPerFolder: 2 } })();
    expect(stuck).toMatchObject({ pendingCleared: 0, failed: 1 });
    expect(g.calls).not.toContain('finish pending many');
  });

  it('still clears pending uploads when the database refuses the deleted files', async () => {
    const f = fakes({ pending: [upload('e1')], failClaimDeleted: true });
    const report = await createFileSweep(f)();
    expect(report).toMatchObject({ pendingCleared: 1, failed: 1 });
  });
});
