// A fault in the middle of an upload: the function's Deno process is killed while a visitor's post
// is streaming its second file, after the first one is already an object in Storage. The entry
// never commits, so that object is an orphan; the pending upload the endpoint recorded before its
// first object lets the scheduled pass (the file sweep, once the record is an hour old) remove it.
// On a stack of its own, as the other fault tests.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES_BUCKET } from '../../supabase/functions/forms/uploads/file-store.ts';
import { functionUrl, ORIGIN, seedForm } from '../endpoint/support.ts';
import { startLoadStack, type LoadStack } from './support.ts';

let load: LoadStack;

beforeAll(async () => {
  load = await startLoadStack('uploads-fault');
});
afterAll(async () => {
  await load?.stop();
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('an upload cut short by the function dying', () => {
  it('leaves no orphan object once the sweep has run', async () => {
    const { stack, functionLog } = load;
    const form = await seedForm(stack.pool, 'Uploads fault');
    await stack.pool.query(
      `insert into public.form_uploads (form_id, user_id, enabled, kinds, max_file_bytes,
         max_total_bytes, max_files) values ($1, $2, true, '{image,pdf}', 10485760, 20971520, 3)`,
      [form.formId, form.userId],
    );
    const folderLike = `${form.userId}/${form.formId}/%`;
    const objects = async () =>
      (
        await stack.pool.query<{ name: string }>(
          'select name from storage.objects where bucket_id = $1 and name like $2',
          [FILES_BUCKET, folderLike],
        )
      ).rows.map((row) => row.name);

    // The post: text, a PNG, then a 10 MB PDF of which only the first megabyte is ever sent.
    const boundary = '----tinybackFault';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nHello\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="a"; filename="photo.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    const between = Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="b"; filename="big.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n%PDF-1.7\n',
    );
    const declared = head.length + PNG.length + between.length + 10 * 1024 * 1024 + 64;
    const req = http.request(functionUrl(stack.settings.apiUrl, form.formId), {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': declared,
        origin: ORIGIN,
        accept: 'application/json',
      },
    });
    const answered = new Promise<number | string>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (err) => resolve(err.message));
    });
    req.write(Buffer.concat([head, PNG, between, Buffer.alloc(1024 * 1024, 0x20)]));

    // The PNG is an object of its own before the second file is done.
    const [orphan] = await until('the first file stored', async () => {
      const names = await objects();
      return names.length ? names : null;
    });
    expect(orphan).toMatch(/\/1-photo\.png$/);
    const entryId = orphan!.split('/')[2]!;

    const killed = stack.functions.kill('forms');
    expect(killed).toBeDefined();
    const answer = await answered;
    req.destroy();
    // The client may hear of the broken connection before the stack logs the worker's exit.
    await until('the worker to exit', async () =>
      functionLog.some((l) => l.includes(`worker ${killed} exited (SIGKILL)`)),
    );
    // Nothing committed: no entry, the pending record and the object remain.
    const state = async () =>
      (
        await stack.pool.query<{ entries: number; pending: number }>(
          `select (select count(*) from public.entries where id = $1)::int as entries,
                  (select count(*) from private.pending_uploads where entry_id = $1)::int as pending`,
          [entryId],
        )
      ).rows[0]!;
    expect(await state()).toEqual({ entries: 0, pending: 1 });
    expect(await objects()).toEqual([orphan]);

    // Within the hour the sweep leaves a pending upload alone (the post may still be going).
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await objects()).toEqual([orphan]);

    // An hour on, the scheduled pass (every 250 ms on this stack) removes the orphan.
    await stack.pool.query(
      `update private.pending_uploads set created_at = now() - interval '61 minutes'
        where entry_id = $1`,
      [entryId],
    );
    const started = performance.now();
    await until('the sweep to remove the orphan', async () => (await objects()).length === 0);
    await until('the pending record to go', async () => (await state()).pending === 0);
    console.log(
      `[load] upload cut short: function killed (pid ${killed}) mid-upload, the visitor saw ` +
        `${JSON.stringify(answer)}; 1 orphan object removed by the sweep ` +
        `${Math.round(performance.now() - started)} ms after its record was an hour old`,
    );
  });
});
