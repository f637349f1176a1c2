import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectFiles } from './files.ts';

let dir: string;
let files: ObjectFiles;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'storage-files-'));
  files = new ObjectFiles(dir);
  await files.prepare(true);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Chunks as a request yields them, counting how many were read. */
function chunks(count: number, size: number) {
  const read = { count: 0 };
  async function* source() {
    for (let i = 0; i < count; i++) {
      read.count++;
      yield Buffer.alloc(size, i);
    }
  }
  return { source: source(), read };
}

describe('object files', () => {
  it('stages an upload with its size and MD5 ETag, then places it as a version of its key', async () => {
    const { source } = chunks(3, 4);
    const staged = await files.stage(source, 12);
    expect(staged.size).toBe(12);
    const bytes = Buffer.concat([Buffer.alloc(4, 0), Buffer.alloc(4, 1), Buffer.alloc(4, 2)]);
    expect(staged.eTag).toBe(`"${createHash('md5').update(bytes).digest('hex')}"`);
    await files.place(staged, 'b', 'a/b.txt', 'v1');
    const stored = await readFile(files.pathOf('b', 'a/b.txt', 'v1'));
    expect(
      stored.equals(Buffer.concat([Buffer.alloc(4, 0), Buffer.alloc(4, 1), Buffer.alloc(4, 2)])),
    ).toBe(true);
    expect(await readdir(path.join(dir, 'uploads'))).toEqual([]);
  });

  it('refuses past the cap, yet reads the whole body, and leaves no file', async () => {
    const { source, read } = chunks(10, 100);
    await expect(files.stage(source, 250)).rejects.toMatchObject({ code: 'EntityTooLarge' });
    expect(read.count).toBe(10);
    expect(await readdir(path.join(dir, 'uploads'))).toEqual([]);
  });

  it('removes a version and the folders it leaves empty, not those of other objects', async () => {
    for (const key of ['a/b/c.txt', 'a/d.txt']) {
      const staged = await files.stage(chunks(1, 1).source, 10);
      await files.place(staged, 'bucket', key, 'v1');
    }
    await files.remove('bucket', 'a/b/c.txt', 'v1');
    expect(await readdir(path.join(dir, 'objects', 'bucket', 'a'))).toEqual(['d.txt']);
    await files.remove('bucket', 'a/d.txt', 'v1');
    expect(await readdir(path.join(dir, 'objects', 'bucket'))).toEqual([]);
  });
});
