// Storage through the real supabase-js client: a private bucket made with the service role, the
// documented RLS pattern (a user's objects live under a first folder named after their id) added
// here with the superuser, then two users and a visitor. What one user uploads only they read,
// list, sign and remove; signed URLs work without a JWT; limits, MIME types and duplicates answer
// Storage's errors (HTTP 400, the real status in the body's statusCode) and leave nothing behind;
// routes the local stack does not serve say so.
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superuserPool } from '../support/db.ts';
import { newClient, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { testStack, testTarget } from '../support/stack.ts';

const stack = testStack();
const target = testTarget();
const BUCKET = `uploads-${randomUUID().slice(0, 8)}`;
const BUCKET_LIMIT = 1024;

/** The documented pattern: the first folder of the object's name is the user's id. */
const POLICIES = (bucket: string) => {
  const own = `bucket_id = '${bucket}' and (storage.foldername(name))[1] = (select auth.uid()::text)`;
  return `
    create policy "${bucket} insert own" on storage.objects for insert to authenticated
      with check (${own});
    create policy "${bucket} select own" on storage.objects for select to authenticated
      using (${own});
    create policy "${bucket} update own" on storage.objects for update to authenticated
      using (${own});
    create policy "${bucket} delete own" on storage.objects for delete to authenticated
      using (${own});`;
};

interface ApiError {
  message: string;
  status?: number;
  statusCode?: string;
}

let db: pg.Pool;
let alice: TestUser;
let bob: TestUser;
const visitor = newClient();
const service = serviceClient();

/** The version files of an object on disk (none once it is gone). */
async function filesOf(key: string): Promise<string[]> {
  if (!target.storageDir) return [];
  const dir = path.join(target.storageDir, 'objects', BUCKET, ...key.split('/'));
  return readdir(dir).catch(() => []);
}

async function rowCount(key: string): Promise<number> {
  const { rows } = await db.query(
    'select 1 from storage.objects where bucket_id = $1 and name = $2',
    [BUCKET, key],
  );
  return rows.length;
}

beforeAll(async () => {
  db = superuserPool(stack.dbUrl);
  const created = await service.storage.createBucket(BUCKET, {
    public: false,
    fileSizeLimit: BUCKET_LIMIT,
    allowedMimeTypes: ['image/*', 'text/plain'],
  });
  if (created.error) throw created.error;
  await db.query(POLICIES(BUCKET));
  [alice, bob] = await Promise.all([signUp('Alice Storage'), signUp('Bob Storage')]);
});

afterAll(async () => {
  await db.query(
    ['insert', 'select', 'update', 'delete']
      .map((op) => `drop policy if exists "${BUCKET} ${op} own" on storage.objects;`)
      .join('\n'),
  );
  await db.end();
});

describe('Storage buckets', () => {
  it('keeps the bucket as created, private, with its limits', async () => {
    const { data, error } = await service.storage.getBucket(BUCKET);
    expect(error).toBeNull();
    expect(data).toMatchObject({
      id: BUCKET,
      name: BUCKET,
      public: false,
      file_size_limit: BUCKET_LIMIT,
      allowed_mime_types: ['image/*', 'text/plain'],
    });
  });

  it('shows visitors no bucket: RLS on storage.buckets, no policy', async () => {
    const { data, error } = await visitor.storage.listBuckets();
    expect(error).toBeNull();
    expect(data).toEqual([]);
    const own = await visitor.storage.getBucket(BUCKET);
    expect((own.error as ApiError).statusCode).toBe('404');
  });

  it('updates a bucket: its limits change what uploads it takes', async () => {
    const name = `changing-${randomUUID().slice(0, 8)}`;
    expect((await service.storage.createBucket(name)).error).toBeNull();
    const updated = await service.storage.updateBucket(name, {
      public: false,
      fileSizeLimit: '1KB',
      allowedMimeTypes: ['image/png'],
    });
    expect(updated.error).toBeNull();
    expect((await service.storage.getBucket(name)).data).toMatchObject({
      file_size_limit: 1000,
      allowed_mime_types: ['image/png'],
    });
    const text = await service.storage
      .from(name)
      .upload('a.txt', new Blob(['x'], { type: 'text/plain' }));
    expect((text.error as ApiError).statusCode).toBe('415');
    const missing = await service.storage.updateBucket(`nope-${randomUUID()}`, { public: true });
    expect((missing.error as ApiError).statusCode).toBe('404');
  });

  it('refuses a second bucket of the same name (409 in the body, 400 on the wire)', async () => {
    const { error } = await service.storage.createBucket(BUCKET);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).statusCode).toBe('409');
  });
});

describe('Storage buckets: deleting, public buckets', () => {
  it('deletes an empty bucket, refuses one with objects (409)', async () => {
    const name = `doomed-${randomUUID().slice(0, 8)}`;
    expect((await service.storage.createBucket(name)).error).toBeNull();
    const file = await service.storage
      .from(name)
      .upload('x.txt', new Blob(['x'], { type: 'text/plain' }));
    expect(file.error).toBeNull();
    const full = await service.storage.deleteBucket(name);
    expect((full.error as ApiError).statusCode).toBe('409');
    expect((await service.storage.from(name).remove(['x.txt'])).error).toBeNull();
    expect((await service.storage.deleteBucket(name)).error).toBeNull();
    const gone = await service.storage.getBucket(name);
    expect((gone.error as ApiError).statusCode).toBe('404');
  });

  it("serves a public bucket's objects by URL without a JWT, and no private bucket's", async () => {
    const name = `public-${randomUUID().slice(0, 8)}`;
    expect((await service.storage.createBucket(name, { public: true })).error).toBeNull();
    const file = await service.storage
      .from(name)
      .upload('logo.txt', new Blob(['public bytes'], { type: 'text/plain' }));
    expect(file.error).toBeNull();
    const res = await fetch(visitor.storage.from(name).getPublicUrl('logo.txt').data.publicUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('public bytes');
    // A signed-in download of a public bucket skips RLS too (no policy covers this bucket).
    const asUser = await alice.client.storage.from(name).download('logo.txt');
    expect(await asUser.data?.text()).toBe('public bytes');

    const upload = await alice.client.storage
      .from(BUCKET)
      .upload(`${alice.id}/not-public.txt`, new Blob(['private'], { type: 'text/plain' }));
    expect(upload.error).toBeNull();
    const privateUrl = visitor.storage.from(BUCKET).getPublicUrl(`${alice.id}/not-public.txt`);
    const refused = await fetch(privateUrl.data.publicUrl);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });
  });
});

describe('Storage objects under RLS', () => {
  it('uploads, downloads the same bytes, lists and describes an object', async () => {
    const key = `${alice.id}/note.txt`;
    const upload = await alice.client.storage
      .from(BUCKET)
      .upload('' + key, new Blob(['hello storage'], { type: 'text/plain' }));
    expect(upload.error).toBeNull();
    expect(upload.data).toMatchObject({ path: key, fullPath: `${BUCKET}/${key}` });

    const download = await alice.client.storage.from(BUCKET).download(key);
    expect(download.error).toBeNull();
    expect(await download.data!.text()).toBe('hello storage');

    const listed = await alice.client.storage.from(BUCKET).list(alice.id);
    expect(listed.error).toBeNull();
    expect(listed.data!.map((o) => o.name)).toContain('note.txt');
    const entry = listed.data!.find((o) => o.name === 'note.txt')!;
    expect(entry.metadata).toMatchObject({
      size: 13,
      mimetype: 'text/plain',
      cacheControl: 'max-age=3600',
    });

    expect((await alice.client.storage.from(BUCKET).exists(key)).data).toBe(true);
    expect((await bob.client.storage.from(BUCKET).exists(key)).data).toBe(false);

    const info = await alice.client.storage.from(BUCKET).info(key);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: key, size: 13, contentType: 'text/plain' });

    const { rows } = await db.query(
      'select owner_id, path_tokens from storage.objects where bucket_id = $1 and name = $2',
      [BUCKET, key],
    );
    expect(rows).toEqual([{ owner_id: alice.id, path_tokens: [alice.id, 'note.txt'] }]);
    expect(await filesOf(key)).toHaveLength(target.storageDir ? 1 : 0);
  });

  it('takes a raw body with its content type, and answers downloads with its headers', async () => {
    const key = `${alice.id}/pixel.png`;
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const upload = await alice.client.storage
      .from(BUCKET)
      .upload(key, bytes, { contentType: 'image/png', cacheControl: '60' });
    expect(upload.error).toBeNull();
    const signed = await alice.client.storage.from(BUCKET).createSignedUrl(key, 60);
    expect(signed.error).toBeNull();
    // No apikey, no JWT: the token alone opens it.
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('max-age=60');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    // A token for one object opens no other, and a forged one nothing.
    const other = signed.data!.signedUrl.replace('pixel.png', 'note.txt');
    expect((await fetch(other)).status).toBe(400);
    const forged = signed.data!.signedUrl.replace(
      /token=[^&]+/,
      'token=eyJhbGciOiJIUzI1NiJ9.e30.x',
    );
    expect((await fetch(forged)).status).toBe(400);
  });

  it("hides one user's objects from another user and from visitors", async () => {
    const key = `${alice.id}/secret.txt`;
    const upload = await alice.client.storage
      .from(BUCKET)
      .upload(key, new Blob(['for alice only'], { type: 'text/plain' }));
    expect(upload.error).toBeNull();

    for (const [who, client] of [
      ['bob', bob.client],
      ['visitor', visitor],
    ] as const) {
      const download = await client.storage.from(BUCKET).download(key);
      expect(download.data, who).toBeNull();
      expect((download.error as ApiError).statusCode, who).toBe('404');
      expect(download.error?.message, who).toBe('Object not found');

      const listed = await client.storage.from(BUCKET).list(alice.id);
      expect(listed.data, who).toEqual([]);

      const signed = await client.storage.from(BUCKET).createSignedUrl(key, 60);
      expect(signed.data, who).toBeNull();
      expect((signed.error as ApiError).statusCode, who).toBe('404');

      const many = await client.storage.from(BUCKET).createSignedUrls([key], 60);
      expect(many.data?.[0], who).toMatchObject({ signedUrl: null, path: key });

      const removed = await client.storage.from(BUCKET).remove([key]);
      expect(removed.data, who).toEqual([]);
    }
    // Still there, for its owner; the service role bypasses RLS.
    expect(await rowCount(key)).toBe(1);
    expect((await alice.client.storage.from(BUCKET).download(key)).error).toBeNull();
    const asService = await service.storage.from(BUCKET).list(alice.id);
    expect(asService.data!.map((o) => o.name)).toContain('secret.txt');

    // Writing into another user's folder is refused by the insert policy.
    const intrusion = await bob.client.storage
      .from(BUCKET)
      .upload(`${alice.id}/from-bob.txt`, new Blob(['x'], { type: 'text/plain' }));
    expect((intrusion.error as ApiError).status).toBe(400);
    expect((intrusion.error as ApiError).statusCode).toBe('403');
    expect(intrusion.error?.message).toBe('new row violates row-level security policy');
    expect(await rowCount(`${alice.id}/from-bob.txt`)).toBe(0);
    expect(await filesOf(`${alice.id}/from-bob.txt`)).toEqual([]);
    const anonymous = await visitor.storage
      .from(BUCKET)
      .upload(`${alice.id}/from-visitor.txt`, new Blob(['x'], { type: 'text/plain' }));
    expect((anonymous.error as ApiError).statusCode).toBe('403');
    expect(await rowCount(`${alice.id}/from-visitor.txt`)).toBe(0);
  });

  it("refuses an upload over the bucket's size limit and keeps neither row nor file", async () => {
    const key = `${alice.id}/too-large.txt`;
    const { error } = await alice.client.storage
      .from(BUCKET)
      .upload(key, new Blob(['x'.repeat(BUCKET_LIMIT + 1)], { type: 'text/plain' }));
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).statusCode).toBe('413');
    expect(error?.message).toBe('The object exceeded the maximum allowed size');
    expect(await rowCount(key)).toBe(0);
    expect(await filesOf(key)).toEqual([]);
    if (target.storageDir) {
      expect(await readdir(path.join(target.storageDir, 'uploads'))).toEqual([]);
    }
    // Exactly at the limit is fine.
    const fits = await alice.client.storage
      .from(BUCKET)
      .upload(key, new Blob(['x'.repeat(BUCKET_LIMIT)], { type: 'text/plain' }));
    expect(fits.error).toBeNull();
  });

  it('keeps keys with spaces and punctuation, through download, list and signed URLs', async () => {
    const key = `${alice.id}/My file (1) & more.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    expect((await bucket.upload(key, new Blob(['odd'], { type: 'text/plain' }))).error).toBeNull();
    expect(await (await bucket.download(key)).data!.text()).toBe('odd');
    expect((await bucket.list(alice.id)).data!.map((o) => o.name)).toContain(
      'My file (1) & more.txt',
    );
    const signed = await bucket.createSignedUrl(key, 60);
    expect(await (await fetch(signed.data!.signedUrl)).text()).toBe('odd');
    const invalid = await bucket.upload(`${alice.id}/a<b.txt`, new Blob(['x']));
    expect((invalid.error as ApiError).statusCode).toBe('400');
    expect(invalid.error?.message).toBe(`Invalid key: ${alice.id}/a<b.txt`);
  });

  it('lists one level at a time: folders with a null id, search, sorting and paging', async () => {
    const folder = `${alice.id}/listing`;
    const bucket = alice.client.storage.from(BUCKET);
    for (const name of ['b.txt', 'a.txt', 'c.txt', 'sub/deep.txt']) {
      const upload = await bucket.upload(
        `${folder}/${name}`,
        new Blob([name], { type: 'text/plain' }),
      );
      expect(upload.error).toBeNull();
    }
    const all = (await bucket.list(folder)).data!;
    expect(all.map((o) => [o.name, o.id === null])).toEqual([
      ['a.txt', false],
      ['b.txt', false],
      ['c.txt', false],
      ['sub', true],
    ]);
    const page = await bucket.list(folder, {
      limit: 2,
      offset: 1,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(page.data!.map((o) => o.name)).toEqual(['c.txt', 'b.txt']);
    expect((await bucket.list(folder, { search: 'b' })).data!.map((o) => o.name)).toEqual([
      'b.txt',
    ]);
    expect((await bucket.list(`${folder}/sub`)).data!.map((o) => o.name)).toEqual(['deep.txt']);
  });

  it('replaces an existing object with update(), and refuses one that does not exist', async () => {
    const key = `${alice.id}/updated.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    expect((await bucket.upload(key, new Blob(['old'], { type: 'text/plain' }))).error).toBeNull();
    const updated = await bucket.update(key, new Blob(['new'], { type: 'text/plain' }));
    expect(updated.error).toBeNull();
    expect(await (await bucket.download(key)).data!.text()).toBe('new');
    expect(await filesOf(key)).toHaveLength(target.storageDir ? 1 : 0);
    const missing = await bucket.update(
      `${alice.id}/never.txt`,
      new Blob(['x'], { type: 'text/plain' }),
    );
    expect((missing.error as ApiError).statusCode).toBe('404');
    expect(await filesOf(`${alice.id}/never.txt`)).toEqual([]);
  });

  it('lets a signed URL expire', async () => {
    const key = `${alice.id}/short-lived.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    expect(
      (await bucket.upload(key, new Blob(['brief'], { type: 'text/plain' }))).error,
    ).toBeNull();
    const signed = await bucket.createSignedUrl(key, 1);
    expect(signed.error).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'ExpiredToken' });
  });

  it('caps a bucket without a limit at the global one (50 MiB), streaming', async () => {
    const name = `unlimited-${randomUUID().slice(0, 8)}`;
    expect((await service.storage.createBucket(name)).error).toBeNull();
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    // 50 MiB and one byte, made as they are sent.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 50) {
          controller.enqueue(new Uint8Array(1));
          controller.close();
        } else controller.enqueue(chunk);
        sent++;
      },
    });
    const { error } = await service.storage
      .from(name)
      .upload('big.bin', body, { contentType: 'application/octet-stream' });
    expect((error as ApiError).statusCode).toBe('413');
    expect(sent).toBe(51);
    expect(
      (await db.query('select 1 from storage.objects where bucket_id = $1', [name])).rows,
    ).toEqual([]);
    if (target.storageDir) {
      expect(await readdir(path.join(target.storageDir, 'uploads'))).toEqual([]);
    }
  });

  it('refuses a MIME type the bucket does not allow', async () => {
    const key = `${alice.id}/doc.pdf`;
    const { error } = await alice.client.storage
      .from(BUCKET)
      .upload(key, new Blob(['%PDF'], { type: 'application/pdf' }));
    expect((error as ApiError).statusCode).toBe('415');
    expect(error?.message).toBe('mime type application/pdf is not supported');
    expect(await rowCount(key)).toBe(0);
  });

  it('refuses a duplicate without upsert, and replaces the object with it', async () => {
    const key = `${alice.id}/twice.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    expect((await bucket.upload(key, new Blob(['one'], { type: 'text/plain' }))).error).toBeNull();
    const again = await bucket.upload(key, new Blob(['two'], { type: 'text/plain' }));
    expect((again.error as ApiError).statusCode).toBe('409');
    expect(again.error?.message).toBe('The resource already exists');
    expect(await (await bucket.download(key)).data!.text()).toBe('one');

    const upsert = await bucket.upload(key, new Blob(['three'], { type: 'text/plain' }), {
      upsert: true,
    });
    expect(upsert.error).toBeNull();
    expect(await (await bucket.download(key)).data!.text()).toBe('three');
    // The replaced version's file is gone.
    expect(await filesOf(key)).toHaveLength(target.storageDir ? 1 : 0);
  });

  it('uploads through a signed upload URL, owned by whoever signed it', async () => {
    const key = `${alice.id}/signed-upload.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    const signed = await bucket.createSignedUploadUrl(key);
    expect(signed.error).toBeNull();
    // Anyone with the token may use it: here a visitor's client.
    const upload = await visitor.storage
      .from(BUCKET)
      .uploadToSignedUrl(key, signed.data!.token, new Blob(['via token'], { type: 'text/plain' }));
    expect(upload.error).toBeNull();
    expect(await (await bucket.download(key)).data!.text()).toBe('via token');
    const { rows } = await db.query(
      'select owner_id from storage.objects where bucket_id = $1 and name = $2',
      [BUCKET, key],
    );
    expect(rows).toEqual([{ owner_id: alice.id }]);

    // Signing needs the right to insert there: Bob has none in Alice's folder.
    const refused = await bob.client.storage
      .from(BUCKET)
      .createSignedUploadUrl(`${alice.id}/bob-was-here.txt`);
    expect((refused.error as ApiError).statusCode).toBe('403');
  });

  it('removes an object: its row and its file', async () => {
    const key = `${alice.id}/to-remove.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    expect((await bucket.upload(key, new Blob(['bye'], { type: 'text/plain' }))).error).toBeNull();
    const removed = await bucket.remove([key]);
    expect(removed.error).toBeNull();
    expect(removed.data!.map((o) => o.name)).toEqual([key]);
    expect(await rowCount(key)).toBe(0);
    expect(await filesOf(key)).toEqual([]);
    expect((await bucket.download(key)).error?.message).toBe('Object not found');
  });

  it('refuses deleting rows with SQL, as Supabase does', async () => {
    await expect(
      db.query('delete from storage.objects where bucket_id = $1', [BUCKET]),
    ).rejects.toMatchObject({
      code: '42501',
      message: 'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
    });
  });
});

describe('what policies see', () => {
  it('storage.operation() and the request, set per call as Storage sets them', async () => {
    const name = `ops-${randomUUID().slice(0, 8)}`;
    expect((await service.storage.createBucket(name)).error).toBeNull();
    await db.query(`
      create policy "${name} upload" on storage.objects for insert to authenticated
        with check (bucket_id = '${name}' and storage.operation() = 'storage.object.upload'
          and current_setting('request.headers')::json ->> 'x-upsert' = 'false');
      create policy "${name} download" on storage.objects for select to authenticated
        using (bucket_id = '${name}' and storage.operation() = 'storage.object.get_authenticated'
          and current_setting('request.method') = 'GET');`);
    try {
      const bucket = alice.client.storage.from(name);
      expect(
        (await bucket.upload('a.txt', new Blob(['a'], { type: 'text/plain' }))).error,
      ).toBeNull();
      expect(await (await bucket.download('a.txt')).data!.text()).toBe('a');
      // Listing is another operation: the policy shows it nothing.
      expect((await bucket.list('')).data).toEqual([]);
      const upsert = await bucket.upload('b.txt', new Blob(['b'], { type: 'text/plain' }), {
        upsert: true,
      });
      expect((upsert.error as ApiError).statusCode).toBe('403');
    } finally {
      await db.query(`drop policy "${name} upload" on storage.objects;
        drop policy "${name} download" on storage.objects;`);
    }
  });
});

describe('what the local Storage does not serve', () => {
  it('answers a refusal that names the route', async () => {
    const moved = await alice.client.storage.from(BUCKET).move(`${alice.id}/a`, `${alice.id}/b`);
    expect(moved.data).toBeNull();
    expect(moved.error?.message).toBe(
      "Moving objects (POST /object/move) is not served by the local stack's Storage (see local-stack/README.md)",
    );
    const res = await fetch(`${stack.apiUrl}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, Authorization: `Bearer ${stack.anonKey}` },
    });
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ statusCode: '501', error: 'not_implemented' });
  });
});
