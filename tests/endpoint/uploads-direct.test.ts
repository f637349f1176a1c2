// Direct uploads, through the real parts (the function under Deno, Postgres with the migrations,
// the local Storage over HTTP): the JavaScript embed asks the form's uploads route for signed
// upload URLs, PUTs each file to Storage itself and then posts its text fields naming the entry.
// The same files end in the same rows and objects as a streamed post; what the route is asked
// for is held to the form's limits; what reaches Storage is judged again (its real size and its
// kind from its first bytes) and a refused post keeps no entry and no object; an entry the form
// never handed out is refused; a signed URL never overwrites an object.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { FILES_BUCKET } from '../../supabase/functions/forms/uploads/file-store.ts';
import { superuserPool } from '../support/db.ts';
import { serviceClient } from '../support/supabase-users.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  runDeliver,
  seedForm,
  setFormUploads,
  urlencoded,
  type SeededForm,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const bucket = serviceClient().storage.from(FILES_BUCKET);
let pool: pg.Pool;
let form: SeededForm;
/** A second form with uploads on, of another owner. */
let other: SeededForm;

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
/** A Windows program's first bytes, sent as a PDF. */
const EXE = Buffer.from('MZ\x90\x00\x03\x00\x00\x00binary', 'latin1');

interface Announced {
  status: number;
  body: {
    ok: boolean;
    entry?: string;
    uploads?: { name: string; path: string; url: string }[];
    code?: string;
    fields?: Record<string, string>;
    limit?: number;
  };
}

/** Asks the form's uploads route for signed upload URLs. */
async function announce(
  files: { name: string; size: number; field?: string }[],
  formId = form.formId,
): Promise<Announced> {
  const res = await rawRequest(`${functionUrl(stack.apiUrl, formId)}/uploads`, {
    headers: { 'content-type': 'application/json', origin: ORIGIN, accept: 'application/json' },
    body: JSON.stringify({ files }),
  });
  return { status: res.status, body: JSON.parse(res.body) };
}

/** What a browser's fetch(url, { method: 'PUT', body: file }) sends. */
const put = (url: string, bytes: Buffer, type: string) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': type }, body: new Uint8Array(bytes) });

/** The post that follows: the text fields and the entry, urlencoded as the embed sends them. */
function post(entry: string, extra: [string, string][] = [], formId = form.formId) {
  return rawRequest(functionUrl(stack.apiUrl, formId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'application/json',
    },
    body: urlencoded([
      ['email', 'visitor@example.test'],
      ['message', 'Here are the files.'],
      ['_uploads_entry', entry],
      ...extra,
    ]),
  });
}

/** Announces `files`, PUTs each one's bytes to its URL, and answers the entry. */
async function upload(files: { name: string; bytes: Buffer; type: string; size?: number }[]) {
  const announced = await announce(
    files.map((f) => ({ name: f.name, size: f.size ?? f.bytes.length, field: 'attachment' })),
  );
  expect(announced.status, JSON.stringify(announced.body)).toBe(200);
  const uploads = announced.body.uploads!;
  for (const [i, file] of files.entries()) {
    const res = await put(uploads[i]!.url, file.bytes, file.type);
    expect(res.status, await res.clone().text()).toBe(200);
  }
  return announced.body.entry!;
}

/** A multipart body as a browser builds it, for the same files streamed. */
function multipartBody(files: { name: string; bytes: Buffer; type: string }[]) {
  const boundary = `----tinybackFiles${randomUUID().slice(0, 8)}`;
  const chunks: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nvisitor@example.test\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nHere are the files.\r\n`,
    ),
  ];
  for (const file of files)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function counts(of = form) {
  const { rows } = await pool.query<{ entries: number; objects: number }>(
    `select (select count(*) from public.entries where form_id = $1)::int as entries,
            (select count(*) from storage.objects
              where bucket_id = $2 and name like $3)::int as objects`,
    [of.formId, FILES_BUCKET, `${of.userId}/${of.formId}/%`],
  );
  return rows[0]!;
}

/** The entry's files and their objects, with the entry's own folder left out. */
async function entryFiles(entryId: string) {
  const { rows } = await pool.query(
    `select f.position, f.object_key, f.name, f.kind, f.mime_type, f.size::int as size,
            (o.metadata ->> 'size')::int as object_size
       from public.entry_files f
       left join storage.objects o on o.bucket_id = $2 and o.name = f.object_key
      where f.entry_id = $1 order by f.position`,
    [entryId, FILES_BUCKET],
  );
  const folder = `${form.userId}/${form.formId}/${entryId}/`;
  return rows.map((row) => ({
    ...row,
    object_key: (row.object_key as string).startsWith(folder)
      ? (row.object_key as string).slice(folder.length)
      : row.object_key,
  }));
}

async function download(key: string) {
  const { data, error } = await bucket.download(key);
  expect(error).toBeNull();
  return Buffer.from(await data!.arrayBuffer());
}

const setUploads = (of: SeededForm, settings: Record<string, unknown> = {}) =>
  setFormUploads(pool, of, settings);

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // Forms of their own; the function reads them fresh (never posted to before).
  form = await seedForm(pool, 'Direct files');
  other = await seedForm(pool, 'Other files');
  await setUploads(form);
  await setUploads(other);
});
afterAll(async () => {
  for (const of of [form, other].filter(Boolean))
    await pool?.query('delete from auth.users where id = $1', [of.userId]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

const FILES = [
  { name: 'photo.png', bytes: PNG, type: 'image/png' },
  { name: 'Lebenslauf für Bewerbung.pdf', bytes: pdf(900), type: 'application/pdf' },
];

describe('a direct upload', () => {
  it('answers an entry and one signed upload URL per file, under the owner, form and entry', async () => {
    const { status, body } = await announce([
      { name: '../../etc/photo.png', size: 10 },
      { name: 'Bericht\u202Efdp.exe', size: 10 },
    ]);
    expect(status, JSON.stringify(body)).toBe(200);
    const folder = `${form.userId}/${form.formId}/${body.entry}`;
    expect(body.uploads!.map(({ name, path }) => ({ name, path }))).toEqual([
      { name: 'photo.png', path: `${folder}/1-photo.png` },
      { name: 'Berichtfdp.exe', path: `${folder}/2-Berichtfdp.exe` },
    ]);
    for (const { url, path } of body.uploads!) {
      expect(url.startsWith(`${stack.apiUrl}/storage/v1/object/upload/sign/${FILES_BUCKET}/`)).toBe(
        true,
      );
      expect(decodeURIComponent(new URL(url).pathname)).toContain(path);
      expect(new URL(url).searchParams.get('token')).toBeTruthy();
    }
    // Recorded for the sweep, dated from when the URLs close (two hours): the sweep's hour
    // starts only once nothing more can be written under the entry.
    const { rows } = await pool.query<{ wait: number }>(
      `select extract(epoch from created_at - now())::int as wait
         from private.pending_uploads where entry_id = $1 and form_id = $2`,
      [body.entry, form.formId],
    );
    expect(rows[0]?.wait).toBeGreaterThan(2 * 3600 - 120);
  });

  it('ends in the same entry_files rows and objects as the same files streamed', async () => {
    const before = await counts();
    // Streamed.
    const streamedBody = multipartBody(FILES);
    const streamed = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: { 'content-type': streamedBody.type, origin: ORIGIN, accept: 'application/json' },
      body: streamedBody.body,
    });
    expect(streamed.status, streamed.body).toBe(200);
    const streamedId = JSON.parse(streamed.body).id as string;
    // Direct.
    const entry = await upload(FILES);
    const res = await post(entry);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, id: entry });

    const streamedRows = await entryFiles(streamedId);
    expect(streamedRows).toEqual([
      {
        position: 1,
        object_key: '1-photo.png',
        name: 'photo.png',
        kind: 'image',
        mime_type: 'image/png',
        size: PNG.length,
        object_size: PNG.length,
      },
      {
        position: 2,
        object_key: '2-Lebenslauf fur Bewerbung.pdf',
        name: 'Lebenslauf für Bewerbung.pdf',
        kind: 'pdf',
        mime_type: 'application/pdf',
        size: 900,
        object_size: 900,
      },
    ]);
    expect(await entryFiles(entry)).toEqual(streamedRows);
    const folder = `${form.userId}/${form.formId}/${entry}`;
    expect((await download(`${folder}/1-photo.png`)).equals(PNG)).toBe(true);
    expect((await download(`${folder}/2-Lebenslauf fur Bewerbung.pdf`)).equals(pdf(900))).toBe(
      true,
    );
    const { rows } = await pool.query(
      `select email, message, data from public.entries where id = $1`,
      [entry],
    );
    // The entry field is the handler's, never stored.
    expect(rows[0]).toEqual({
      email: 'visitor@example.test',
      message: 'Here are the files.',
      data: {},
    });
    expect(await counts()).toEqual({
      entries: before.entries + 2,
      objects: before.objects + 4,
    });
    const { rows: pending } = await pool.query(
      'select 1 from private.pending_uploads where entry_id = $1',
      [entry],
    );
    expect(pending).toEqual([]);

    // Posted again (an answer lost on the way): answered as the first, nothing more stored.
    const again = await post(entry);
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body).id).toBe(entry);
    expect(await counts()).toEqual({
      entries: before.entries + 2,
      objects: before.objects + 4,
    });
    expect(await entryFiles(entry)).toEqual(streamedRows);
  });

  it('keeps no files of a spam post, nor what its URLs write after it once swept', async () => {
    const before = await counts();
    const { body } = await announce([{ name: 'photo.png', size: PNG.length }]);
    const { url } = body.uploads![0]!;
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
    expect((await counts()).objects).toBe(before.objects + 1);
    const res = await post(body.entry!, [['_gotcha', 'http://spam.example']]);
    expect(res.status, res.body).toBe(200);
    expect(await counts()).toEqual({ entries: before.entries + 1, objects: before.objects });
    const { rows } = await pool.query(
      'select count(*)::int n from public.entry_files where entry_id = $1',
      [body.entry],
    );
    expect(rows[0].n).toBe(0);
    // Its URL still works until it closes; the sweep removes what it writes then.
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
    expect((await counts()).objects).toBe(before.objects + 1);
    await pool.query(
      `update private.pending_uploads set created_at = now() - interval '2 hours'
        where entry_id = $1`,
      [body.entry],
    );
    await runDeliver(stack);
    expect((await counts()).objects).toBe(before.objects);
  });

  it('keeps no files when the form stopped taking files after its URLs were handed out', async () => {
    const before = await counts();
    const entry = await upload([FILES[0]!]);
    await setUploads(form, { enabled: false });
    try {
      const res = await post(entry);
      expect(res.status, res.body).toBe(415);
      expect(JSON.parse(res.body).code).toBe('file_uploads_unsupported');
      expect(await counts()).toEqual(before);
    } finally {
      await setUploads(form);
    }
  });

  it('keeps no files of a post refused for its text fields', async () => {
    const before = await counts();
    const entry = await upload([FILES[0]!]);
    const res = await post(entry, [['email', 'not an address']]);
    expect(res.status, res.body).toBe(422);
    expect(await counts()).toEqual(before);
  });

  it("repeats an idempotency key as a streamed post does: the first entry, the repeat's files removed", async () => {
    const key = `direct-${randomUUID()}`;
    const first = await post(await upload([FILES[0]!]), [['_idempotency', key]]);
    expect(first.status, first.body).toBe(200);
    const before = await counts();
    const again = await post(await upload([FILES[0]!]), [['_idempotency', key]]);
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body).id).toBe(JSON.parse(first.body).id);
    expect(await counts()).toEqual(before);
  });
});

describe('a direct upload that breaks a rule', () => {
  const announced: [
    string,
    { name: string; size: number; field?: string }[],
    number,
    string,
    string,
    number | undefined,
  ][] = [
    [
      'too many files',
      [1, 2, 3, 4].map((i) => ({ name: `p${i}.png`, size: 100, field: `f${i}` })),
      422,
      'too_many_files',
      'f4',
      3,
    ],
    [
      'a file too large',
      [{ name: 'cv.pdf', size: 5001, field: 'cv' }],
      413,
      'file_too_large',
      'cv',
      5000,
    ],
    [
      'files too large together',
      [
        { name: 'a.pdf', size: 4000, field: 'a' },
        { name: 'b.pdf', size: 4001, field: 'b' },
      ],
      413,
      'files_too_large',
      'b',
      8000,
    ],
  ];
  for (const [what, files, status, code, field, limit] of announced) {
    it(`refuses ${what} when asked for URLs (${status}), recording nothing`, async () => {
      const { rows: before } = await pool.query(
        'select count(*)::int n from private.pending_uploads where form_id = $1',
        [form.formId],
      );
      const res = await announce(files);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(Object.keys(res.body.fields!)).toEqual([field]);
      expect(res.body.limit).toBe(limit);
      const { rows: after } = await pool.query(
        'select count(*)::int n from private.pending_uploads where form_id = $1',
        [form.formId],
      );
      expect(after[0].n).toBe(before[0].n);
    });
  }

  it("refuses files over the owner's storage left when asked for URLs (413)", async () => {
    const { rows } = await pool.query<{ q: string }>(
      'select storage_quota_bytes::text q from private.upload_settings',
    );
    await pool.query(
      `insert into private.storage_usage (user_id, bytes) values ($1, $2)
       on conflict (user_id) do update set bytes = excluded.bytes`,
      [form.userId, Number(rows[0]!.q) - 1000],
    );
    try {
      const res = await announce([{ name: 'cv.pdf', size: 1500 }]);
      expect(res.status, JSON.stringify(res.body)).toBe(413);
      expect(res.body.code).toBe('storage_full');
      expect(res.body.uploads).toBeUndefined();
    } finally {
      await pool.query('update private.storage_usage set bytes = 0 where user_id = $1', [
        form.userId,
      ]);
    }
  });

  it('refuses a form with uploads off, as a post with files', async () => {
    await setUploads(form, { enabled: false });
    try {
      const res = await announce([{ name: 'photo.png', size: 100 }]);
      expect(res.status, JSON.stringify(res.body)).toBe(415);
      expect(res.body.code).toBe('file_uploads_unsupported');
    } finally {
      await setUploads(form);
    }
  });

  const uploaded: [
    string,
    () => { name: string; bytes: Buffer; type: string; size?: number }[],
    number,
    string,
    string,
    number | undefined,
  ][] = [
    [
      'an object larger than the form allows',
      () => [FILES[0]!, { name: 'cv.pdf', bytes: pdf(5001), type: 'application/pdf', size: 600 }],
      413,
      'file_too_large',
      'attachment',
      5000,
    ],
    [
      'an object larger than announced',
      () => [{ name: 'cv.pdf', bytes: pdf(900), type: 'application/pdf', size: 600 }],
      413,
      'file_too_large',
      'attachment',
      600,
    ],
    [
      'a disguised type',
      () => [FILES[0]!, { name: 'invoice.pdf', bytes: EXE, type: 'application/pdf' }],
      415,
      'file_type_not_allowed',
      'attachment',
      undefined,
    ],
  ];
  for (const [what, files, status, code, field, limit] of uploaded) {
    it(`refuses ${what} once uploaded (${status}) and keeps nothing`, async () => {
      const before = await counts();
      const entry = await upload(files());
      expect((await counts()).objects).toBe(before.objects + files().length);
      const res = await post(entry);
      expect(res.status, res.body).toBe(status);
      const body = JSON.parse(res.body);
      expect(body.code).toBe(code);
      expect(Object.keys(body.fields)).toEqual([field]);
      expect(body.limit).toBe(limit);
      expect(await counts()).toEqual(before);
    });
  }

  it('refuses a post whose announced file never reached Storage, and keeps nothing', async () => {
    const before = await counts();
    const { body } = await announce([
      { name: 'photo.png', size: PNG.length },
      { name: 'cv.pdf', size: 600 },
    ]);
    expect((await put(body.uploads![0]!.url, PNG, 'image/png')).status).toBe(200);
    const res = await post(body.entry!);
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body).code).toBe('invalid_body');
    expect(await counts()).toEqual(before);
  });
});

describe('the entry a post names', () => {
  it('is refused when another form handed it out, and that form keeps its files', async () => {
    const announced = await announce([{ name: 'photo.png', size: PNG.length }], other.formId);
    expect(announced.status, JSON.stringify(announced.body)).toBe(200);
    expect((await put(announced.body.uploads![0]!.url, PNG, 'image/png')).status).toBe(200);
    const beforeOther = await counts(other);
    const before = await counts();
    const res = await post(announced.body.entry!);
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body).code).toBe('invalid_body');
    expect(await counts()).toEqual(before);
    expect(await counts(other)).toEqual(beforeOther);
    // Its own form takes it.
    const own = await post(announced.body.entry!, [], other.formId);
    expect(own.status, own.body).toBe(200);
  });

  it('is refused when no upload was handed out for it', async () => {
    const before = await counts();
    for (const entry of [randomUUID(), 'not-a-uuid']) {
      const res = await post(entry);
      expect(res.status, res.body).toBe(400);
      expect(JSON.parse(res.body).code).toBe('invalid_body');
    }
    expect(await counts()).toEqual(before);
  });
});

describe('a signed upload URL', () => {
  it('cannot overwrite an object, before or after its post', async () => {
    const announced = await announce([{ name: 'photo.png', size: PNG.length }]);
    const { url, path } = announced.body.uploads![0]!;
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
    const again = await put(url, Buffer.from('not the photo'), 'image/png');
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect((await download(path)).equals(PNG)).toBe(true);
    const res = await post(announced.body.entry!);
    expect(res.status, res.body).toBe(200);
    const after = await put(url, Buffer.from('not the photo'), 'image/png');
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect((await download(path)).equals(PNG)).toBe(true);
  });

  it('writes only its own object', async () => {
    const announced = await announce([{ name: 'photo.png', size: PNG.length }]);
    const { url } = announced.body.uploads![0]!;
    const elsewhere = url.replace('/1-photo.png', '/2-photo.png');
    expect(elsewhere).not.toBe(url);
    expect((await put(elsewhere, PNG, 'image/png')).status).toBeGreaterThanOrEqual(400);
  });
});

describe("the client's allowance", () => {
  it('counts each request for URLs like a post', async () => {
    for (let i = 0; i < LIMITS.ratePerMinute; i++) {
      const res = await announce([{ name: 'cv.pdf', size: 5001 }]);
      expect(res.status).toBe(413);
    }
    const res = await announce([{ name: 'photo.png', size: PNG.length }]);
    expect(res.status, JSON.stringify(res.body)).toBe(429);
    expect(res.body.code).toBe('rate_limited');
  });
});
