// The endpoint's file path against the local stack's Storage: each file judged by its first
// bytes, streamed to its object under owner/form/entry in the private submission-files bucket,
// refused before anything is stored when the form does not take its kind, and nothing left behind
// when its stream fails half-way (a broken size limit, a client gone).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UPLOADS } from '../../supabase/functions/_shared/limits.ts';
import {
  FILES_BUCKET,
  storageFileStore,
} from '../../supabase/functions/forms/uploads/file-store.ts';
import {
  entryFolder,
  fileReceiver,
  KindRefused,
} from '../../supabase/functions/forms/uploads/receive.ts';
import { uploadSettings } from '../../supabase/functions/forms/uploads/settings.ts';
import type { IncomingFile } from '../../supabase/functions/forms/uploads/incoming.ts';
import { serviceClient } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const store = storageFileStore({ url: stack.apiUrl, serviceKey: stack.serviceRoleKey });
const admin = serviceClient().storage.from(FILES_BUCKET);
const settings = uploadSettings({ enabled: true, kinds: ['pdf', 'image', 'text'] });

// The detector is file-type under Deno (tests/endpoint/uploads-detect.test.ts); here, the two
// magic numbers these files start with.
const detect = async (head: Uint8Array) =>
  head[0] === 0x25 && head[1] === 0x50
    ? { mime: 'application/pdf', ext: 'pdf' }
    : head[0] === 0x4d && head[1] === 0x5a
      ? { mime: 'application/x-msdownload', ext: 'exe' }
      : undefined;

/** A file of `size` bytes starting with `start`, produced as it is read, 64 KiB at a time. */
function incoming(
  name: string,
  start: string,
  size: number,
  opts: { failAfter?: number } = {},
): { file: IncomingFile; bytes: () => Uint8Array } {
  const whole = new Uint8Array(size);
  whole.set(new TextEncoder().encode(start));
  for (let i = start.length; i < size; i++) whole[i] = i % 251;
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (opts.failAfter !== undefined && at >= opts.failAfter) {
        controller.error(new Error('limit broken'));
        return;
      }
      if (at >= size) return controller.close();
      controller.enqueue(whole.slice(at, at + 64 * 1024));
      at += 64 * 1024;
    },
  });
  return {
    file: { field: 'cv', filename: name, head: whole.slice(0, UPLOADS.sniffBytes), body },
    bytes: () => whole,
  };
}

const folder = () =>
  entryFolder({ userId: randomUUID(), formId: randomUUID(), entryId: randomUUID() });
const listed = async (path: string) => ((await admin.list(path)).data ?? []).map((o) => o.name);

describe('storing a post’s files', () => {
  it('streams a file to its object and reports what was stored', async () => {
    const where = folder();
    const receive = fileReceiver({ store, detect, settings, folder: where });
    const { file, bytes } = incoming('../Résumé\u202e.pdf', '%PDF-1.7', 2 * 1024 * 1024 + 3);
    const stored = await receive(file);
    expect(stored).toEqual({
      position: 1,
      field: 'cv',
      name: 'Résumé.pdf',
      objectKey: `${where}/1-Resume.pdf`,
      kind: 'pdf',
      mimeType: 'application/pdf',
      size: 2 * 1024 * 1024 + 3,
    });
    const downloaded = await admin.download(stored.objectKey);
    // Compared as buffers: a deep comparison of two million elements takes seconds.
    const same = Buffer.from(await downloaded.data!.arrayBuffer()).equals(Buffer.from(bytes()));
    expect(same).toBe(true);
    expect(downloaded.data!.type).toBe('application/pdf');
    await store.remove([stored.objectKey]);
    expect(await listed(where)).toEqual([]);
  });

  it('refuses a kind the form does not take before storing anything of it', async () => {
    const where = folder();
    const receive = fileReceiver({ store, detect, settings, folder: where });
    const { file } = incoming('photo.png', 'MZ', 10_000);
    await expect(receive(file)).rejects.toEqual(new KindRefused('cv', 'application/x-msdownload'));
    expect(await listed(where)).toEqual([]);
  });

  it('leaves no object when the stream fails half-way', async () => {
    const where = folder();
    const receive = fileReceiver({ store, detect, settings, folder: where });
    const { file } = incoming('big.pdf', '%PDF-1.7', 4 * 1024 * 1024, { failAfter: 1024 * 1024 });
    await expect(receive(file)).rejects.toThrow();
    expect(await listed(where)).toEqual([]);
  });

  it('numbers the files of a post in the order they came', async () => {
    const where = folder();
    const receive = fileReceiver({ store, detect, settings, folder: where });
    const first = await receive(incoming('a.pdf', '%PDF', 100).file);
    const second = await receive(incoming('notes.txt', 'plain text', 100).file);
    expect([first.objectKey, second.objectKey]).toEqual([
      `${where}/1-a.pdf`,
      `${where}/2-notes.txt`,
    ]);
    expect(second).toMatchObject({ kind: 'text', mimeType: 'text/plain' });
    await store.remove([first.objectKey, second.objectKey]);
  });
});
