// Direct uploads in Chromium: the fetch variant of the embed code, pasted on a customer's site (its
// own origin), sends a PNG and a PDF straight to Storage through the uploads route's signed URLs
// (a cross-origin preflight to the function, cross-origin PUTs to Storage) and then posts the text
// fields naming the entry; the visitor sees the thank-you line, and the entry has both files, byte
// for byte. A file the form does not take is refused with the endpoint's sentence in the status
// line, and nothing is kept.
import type { Browser } from 'playwright-core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedFetch } from '../../src/features/forms/embed-code';
import { FILES_BUCKET } from '../../supabase/functions/forms/uploads/file-store';
import { createAuthUser, createForm, superuserPool } from '../support/db';
import { serviceClient } from '../support/supabase-users';
import { launchBrowser } from './support/browser';
import { pageWith, startThirdPartySite, type ThirdPartySite } from './support/third-party-site';
import { testStack } from '../support/stack.ts';

const stack = testStack();

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1'),
  Buffer.alloc(2048, 0x41),
]);

describe('direct uploads from the fetch embed in Chromium', () => {
  let browser: Browser;
  let site: ThirdPartySite;
  let pool: pg.Pool;
  let userId: string;
  let formId: string;

  beforeAll(async () => {
    [browser, site] = await Promise.all([launchBrowser(), startThirdPartySite()]);
    pool = superuserPool(stack.dbUrl);
    const user = await createAuthUser(pool, 'owner-direct');
    userId = user.id;
    formId = await createForm(pool, userId, {
      name: 'Applications',
      target_email: user.email,
      allowed_origin: site.origin,
    });
    await pool.query(
      `insert into public.form_uploads (form_id, user_id, enabled, kinds) values ($1, $2, true, $3)`,
      [formId, userId, ['image', 'pdf']],
    );
    const snippet = embedFetch({
      supabaseUrl: stack.apiUrl,
      form: {
        id: formId,
        name: 'Applications',
        user_id: userId,
        allowed_origin: site.origin,
        redirect_url: null,
        form_uploads: { enabled: true, kinds: ['image', 'pdf'], max_files: 3 },
      },
    });
    site.setPage('/apply', pageWith('Apply', snippet));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    if (userId) await pool?.query('delete from auth.users where id = $1', [userId]);
    await pool?.end();
  });

  async function send(files: { name: string; mimeType: string; buffer: Buffer }[]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${site.origin}/apply`);
    await page.getByLabel('Name', { exact: true }).fill('Ada Visitor');
    await page.getByLabel('Email', { exact: true }).fill('ada.visitor@example.org');
    await page.getByLabel('Message', { exact: true }).fill('My CV and photo, attached.');
    await page.getByLabel(/Attachments/).setInputFiles(files);
    const requests: string[] = [];
    page.on('request', (request) =>
      requests.push(`${request.method()} ${new URL(request.url()).pathname}`),
    );
    await page.getByRole('button', { name: 'Send' }).click();
    const status = page.getByRole('status');
    await expect
      .poll(() => status.innerText(), { timeout: 30_000 })
      .not.toMatch(/^(Sending|Uploading)…$|^$/);
    const text = await status.innerText();
    await context.close();
    expect(errors).toEqual([]);
    return { text, requests };
  }

  const entries = async () =>
    (await pool.query<{ id: string }>('select id from public.entries where form_id = $1', [formId]))
      .rows;

  it(
    'uploads both files to Storage, then posts the message naming them',
    { timeout: 90_000 },
    async () => {
      const { text, requests } = await send([
        { name: 'photo.png', mimeType: 'image/png', buffer: PNG },
        { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF },
      ]);
      expect(text).toBe('Thank you! Your message has been sent.');
      // Straight to Storage: the function sees the announcement and the post, never the bytes.
      const puts = requests.filter((r) => r.startsWith('PUT /storage/v1/object/upload/sign/'));
      expect(puts).toHaveLength(2);
      expect(requests).toContain(`POST /functions/v1/forms/${formId}/uploads`);
      expect(requests).toContain(`POST /functions/v1/forms/${formId}`);

      const [entry] = await entries();
      expect(entry).toBeDefined();
      const { rows } = await pool.query(
        `select object_key, name, kind, mime_type, size::int as size
         from public.entry_files where entry_id = $1 order by position`,
        [entry!.id],
      );
      const folder = `${userId}/${formId}/${entry!.id}`;
      expect(rows).toEqual([
        {
          object_key: `${folder}/1-photo.png`,
          name: 'photo.png',
          kind: 'image',
          mime_type: 'image/png',
          size: PNG.length,
        },
        {
          object_key: `${folder}/2-cv.pdf`,
          name: 'cv.pdf',
          kind: 'pdf',
          mime_type: 'application/pdf',
          size: PDF.length,
        },
      ]);
      const bucket = serviceClient().storage.from(FILES_BUCKET);
      for (const [row, bytes] of [
        [rows[0], PNG],
        [rows[1], PDF],
      ] as const) {
        const { data, error } = await bucket.download(row.object_key);
        expect(error).toBeNull();
        expect(Buffer.from(await data!.arrayBuffer()).equals(bytes)).toBe(true);
      }
    },
  );

  it('shows the refusal of a disguised file and keeps nothing', { timeout: 90_000 }, async () => {
    const before = await entries();
    const { rows: objectsBefore } = await pool.query(
      `select count(*)::int n from storage.objects where bucket_id = $1 and name like $2`,
      [FILES_BUCKET, `${userId}/${formId}/%`],
    );
    const { text } = await send([
      {
        name: 'invoice.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('MZ\x90\x00binary', 'latin1'),
      },
    ]);
    expect(text).toBe('This form does not accept files of this type.');
    expect(await entries()).toEqual(before);
    const { rows: objectsAfter } = await pool.query(
      `select count(*)::int n from storage.objects where bucket_id = $1 and name like $2`,
      [FILES_BUCKET, `${userId}/${formId}/%`],
    );
    expect(objectsAfter[0].n).toBe(objectsBefore[0].n);
  });
});
