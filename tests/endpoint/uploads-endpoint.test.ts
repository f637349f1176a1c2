// The form endpoint with files, through the real parts (the function under Deno, Postgres with
// the migrations, the local Storage over HTTP): a post's files are stored under the owner, form
// and entry with the entry's rows, byte for byte; every refusal (a file too large, files too
// large together, too many, a disguised type, the owner's storage full) answers its status, code,
// field and limit and leaves no entry and no object; spam keeps no files; a form with uploads off
// refuses files as before; a browser's refused post lands on the site's refusal page.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { FILES_BUCKET } from '../../supabase/functions/forms/uploads/file-store.ts';
import { superuserPool } from '../support/db.ts';
import { startReceiver } from './webhook-receiver.ts';
import { serviceClient } from '../support/supabase-users.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  runDeliver,
  seedForm,
  setFormUploads,
  type SeededForm,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const bucket = serviceClient().storage.from(FILES_BUCKET);
let pool: pg.Pool;
let form: SeededForm;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A PDF's start, padded to exactly `bytes`. */
function pdf(bytes = 600): Buffer {
  const head = Buffer.from(
    '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n',
    'latin1',
  );
  return Buffer.concat([head, Buffer.alloc(bytes - head.length, 0x20)]);
}

interface Part {
  name: string;
  value?: string;
  file?: { filename: string; type: string; bytes: Buffer };
}

/** A multipart body as a browser builds it, files included. */
function multipartBody(parts: Part[]) {
  const boundary = `----tinybackFiles${randomUUID().slice(0, 8)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (part.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.file.filename}"\r\nContent-Type: ${part.file.type}\r\n\r\n`,
        ),
        part.file.bytes,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}\r\n`,
        ),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

function send(parts: Part[], headers: Record<string, string> = { accept: 'application/json' }) {
  const { body, type } = multipartBody(parts);
  return rawRequest(functionUrl(stack.apiUrl, form.formId), {
    headers: { 'content-type': type, origin: ORIGIN, ...headers },
    body,
  });
}

const textParts = (message = 'Here are the files.'): Part[] => [
  { name: 'email', value: 'visitor@example.test' },
  { name: 'message', value: message },
];
const png = (name = 'attachment', filename = 'photo.png'): Part => ({
  name,
  file: { filename, type: 'image/png', bytes: PNG },
});
const pdfPart = (bytes = 600, name = 'attachment', filename = 'cv.pdf'): Part => ({
  name,
  file: { filename, type: 'application/pdf', bytes: pdf(bytes) },
});

async function counts() {
  const { rows } = await pool.query<{ entries: number; objects: number; pending: number }>(
    `select (select count(*) from public.entries where form_id = $1)::int as entries,
            (select count(*) from storage.objects
              where bucket_id = $2 and name like $3)::int as objects,
            (select count(*) from private.pending_uploads where form_id = $1)::int as pending`,
    [form.formId, FILES_BUCKET, `${form.userId}/${form.formId}/%`],
  );
  return rows[0]!;
}

const setUploads = (settings: Record<string, unknown>) => setFormUploads(pool, form, settings);

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // A form of its own per file; the function reads it fresh (never posted to before).
  form = await seedForm(pool, 'Files');
  await setUploads({});
});
afterAll(async () => {
  await pool?.query('delete from auth.users where id = $1', [form.userId]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

describe('a post with files', () => {
  it('stores the files under the owner, form and entry, byte for byte, with the entry', async () => {
    const before = await counts();
    const res = await send([...textParts(), png(), pdfPart(900, 'cv')]);
    expect(res.status, res.body).toBe(200);
    const entryId = JSON.parse(res.body).id as string;
    const { rows } = await pool.query(
      `select position, object_key, name, kind, mime_type, size::int as size
         from public.entry_files where entry_id = $1 order by position`,
      [entryId],
    );
    const folder = `${form.userId}/${form.formId}/${entryId}`;
    expect(rows).toEqual([
      {
        position: 1,
        object_key: `${folder}/1-photo.png`,
        name: 'photo.png',
        kind: 'image',
        mime_type: 'image/png',
        size: PNG.length,
      },
      {
        position: 2,
        object_key: `${folder}/2-cv.pdf`,
        name: 'cv.pdf',
        kind: 'pdf',
        mime_type: 'application/pdf',
        size: 900,
      },
    ]);
    for (const [row, bytes] of [
      [rows[0], PNG],
      [rows[1], pdf(900)],
    ] as const) {
      const { data, error } = await bucket.download(row.object_key);
      expect(error).toBeNull();
      expect(Buffer.from(await data!.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const { rows: entry } = await pool.query(
      'select email, message from public.entries where id = $1',
      [entryId],
    );
    expect(entry[0]).toEqual({ email: 'visitor@example.test', message: 'Here are the files.' });
    expect(await counts()).toEqual({
      entries: before.entries + 1,
      objects: before.objects + 2,
      pending: before.pending,
    });
  });

  it('skips a file input left empty', async () => {
    const res = await send([
      ...textParts(),
      {
        name: 'attachment',
        file: { filename: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) },
      },
    ]);
    expect(res.status, res.body).toBe(200);
    const { rows } = await pool.query(
      'select count(*)::int n from public.entry_files where entry_id = $1',
      [JSON.parse(res.body).id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('keeps no files of a spam post', async () => {
    const before = await counts();
    const res = await send([
      ...textParts(),
      { name: '_gotcha', value: 'http://spam.example' },
      png(),
    ]);
    expect(res.status, res.body).toBe(200);
    const after = await counts();
    expect(after.objects).toBe(before.objects);
  });
});

describe("a post with files, told to the form's webhook", () => {
  it('carries each file with a signed URL that downloads the same bytes and expires', async () => {
    const receiver = await startReceiver();
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.webhooks (form_id, user_id, url, secret)
       values ($1, $2, $3, 'whsec_uploads_test') returning id`,
      [form.formId, form.userId, receiver.url('/files')],
    );
    try {
      const res = await send([...textParts('For the webhook.'), pdfPart(777)]);
      expect(res.status, res.body).toBe(200);
      const entryId = JSON.parse(res.body).id as string;
      let hook = receiver.received('/files').find((h) => h.raw.includes(entryId));
      for (let i = 0; !hook && i < 50; i++) {
        await runDeliver(stack);
        await new Promise((r) => setTimeout(r, 200));
        hook = receiver.received('/files').find((h) => h.raw.includes(entryId));
      }
      expect(hook, 'the webhook was not delivered').toBeDefined();
      const payload = JSON.parse(hook!.raw.toString());
      const [file] = payload.entry.files;
      expect(file).toMatchObject({
        name: 'cv.pdf',
        size: 777,
        kind: 'pdf',
        mime_type: 'application/pdf',
      });
      expect(hook!.raw.toString()).not.toContain('object_key');
      const expiresIn = Date.parse(file.expires_at) - Date.now();
      expect(expiresIn).toBeGreaterThan(50 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);
      const download = await fetch(file.url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(Buffer.from(await download.arrayBuffer()).equals(pdf(777))).toBe(true);
      // Its token is for that file only.
      const other = await fetch(file.url.replace('/1-cv.pdf', '/2-cv.pdf'));
      expect(other.status).toBeGreaterThanOrEqual(400);
    } finally {
      await pool.query('delete from public.webhooks where id = $1', [rows[0]!.id]);
      await receiver.close();
    }
  });
});

describe('a post with files that breaks a rule', () => {
  const cases: [string, () => Part[], number, string, string, number | undefined][] = [
    [
      'a file too large',
      () => [...textParts(), pdfPart(5001)],
      413,
      'file_too_large',
      'attachment',
      5000,
    ],
    [
      'files too large together',
      () => [...textParts(), pdfPart(4000, 'a', 'a.pdf'), pdfPart(4001, 'b', 'b.pdf')],
      413,
      'files_too_large',
      'b',
      8000,
    ],
    [
      'too many files',
      () => [...textParts(), png('a'), png('b'), png('c'), png('d')],
      422,
      'too_many_files',
      'd',
      3,
    ],
    [
      'a disguised type',
      () => [
        ...textParts(),
        png(),
        {
          name: 'doc',
          file: {
            filename: 'invoice.pdf',
            type: 'application/pdf',
            bytes: Buffer.from('MZ\x90\x00\x03\x00\x00\x00binary', 'latin1'),
          },
        },
      ],
      415,
      'file_type_not_allowed',
      'doc',
      undefined,
    ],
  ];

  for (const [what, parts, status, code, field, limit] of cases) {
    it(`refuses ${what} (${status}) and keeps nothing`, async () => {
      const before = await counts();
      const res = await send(parts());
      expect(res.status, res.body).toBe(status);
      const body = JSON.parse(res.body);
      expect(body.code).toBe(code);
      expect(Object.keys(body.fields)).toEqual([field]);
      expect(body.limit).toBe(limit);
      const after = await counts();
      expect({ entries: after.entries, objects: after.objects }).toEqual({
        entries: before.entries,
        objects: before.objects,
      });
    });
  }

  it("refuses files over the owner's storage quota (413) and keeps nothing", async () => {
    const { rows } = await pool.query<{ q: string }>(
      'select storage_quota_bytes::text q from private.upload_settings',
    );
    const quota = Number(rows[0]!.q);
    await pool.query(
      `insert into private.storage_usage (user_id, bytes) values ($1, $2)
       on conflict (user_id) do update set bytes = excluded.bytes`,
      [form.userId, quota - 1000],
    );
    try {
      const before = await counts();
      const res = await send([...textParts(), pdfPart(1500)]);
      expect(res.status, res.body).toBe(413);
      expect(JSON.parse(res.body).code).toBe('storage_full');
      const after = await counts();
      expect({ entries: after.entries, objects: after.objects }).toEqual({
        entries: before.entries,
        objects: before.objects,
      });
    } finally {
      await pool.query('update private.storage_usage set bytes = 0 where user_id = $1', [
        form.userId,
      ]);
    }
  });

  it("sends a browser's refused post to the site's refusal page", async () => {
    const res = await send([...textParts(), pdfPart(5001)], {
      accept: 'text/html,application/xhtml+xml',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location!);
    expect(location.pathname).toBe('/form-error');
    expect(location.searchParams.get('code')).toBe('file_too_large');
    expect(location.searchParams.get('fields')).toBe('attachment');
  });

  it("counts a post with files against the client's allowance before storing any of it", async () => {
    // Posts refused for their files spend the allowance too: a client cannot make us write
    // file after file to Storage by having each post refused.
    for (let i = 0; i < LIMITS.ratePerMinute; i++) {
      const res = await send([...textParts(), pdfPart(5001)]);
      expect(res.status, res.body).toBe(413);
    }
    const before = await counts();
    const res = await send([...textParts(), png()]);
    expect(res.status, res.body).toBe(429);
    expect(JSON.parse(res.body).code).toBe('rate_limited');
    // Refused before the entry was even recorded for the sweep: nothing was written.
    expect(await counts()).toEqual(before);
  });

  it('refuses files for a form with uploads off, as before', async () => {
    await setUploads({ enabled: false });
    try {
      const before = await counts();
      const res = await send([...textParts(), png()]);
      expect(res.status, res.body).toBe(415);
      expect(JSON.parse(res.body).code).toBe('file_uploads_unsupported');
      const after = await counts();
      expect(after.objects).toBe(before.objects);
      expect(after.entries).toBe(before.entries);
    } finally {
      await setUploads({});
    }
  });
});
