// File uploads end to end in Chromium: an owner turns uploads on in a form's Edit dialog and copies
// the embed code, which now has a file input; a visitor on the customer's (other-origin) site
// attaches a PNG and a PDF and sends the form; the owner's open inbox shows the message with both
// files, live; the PNG has a thumbnail, and downloading each file returns the same bytes. Another
// signed-in user and an anonymous client can neither read nor list them.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { closeEmbedDialog, createFormThroughUi, formCard, openFormsTab } from './support/forms';
import { EMPTY_INBOX, messageCard, openMessagesTab } from './support/messages';
import { pageWith, startThirdPartySite, type ThirdPartySite } from './support/third-party-site';
import { superuserPool } from '../support/db';
import { newClient, signUp } from '../support/supabase-users';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const BUCKET = 'submission-files';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1'),
  Buffer.alloc(2048, 0x41),
]);

describe('file uploads in Chromium', () => {
  const e2e = useE2e('uploads');
  let thirdParty: ThirdPartySite;

  beforeAll(async () => {
    thirdParty = await startThirdPartySite();
  });
  afterAll(async () => {
    await thirdParty?.close();
  });

  it(
    'takes a PNG and a PDF from another site into the owner’s open inbox, for the owner only',
    { timeout: 240_000 },
    async () => {
      const owner = await e2e.newPage();
      const ada = await signedInUser(owner, 'Owner Files');
      await openFormsTab(owner);
      const formId = await createFormThroughUi(owner, {
        name: 'Job applications',
        targetEmail: ada.email,
        allowedOrigin: thirdParty.origin,
      });
      await closeEmbedDialog(owner);

      // Uploads on, in the Edit dialog's Files tab (images and PDF are among the defaults).
      await formCard(owner, 'Job applications').getByRole('button', { name: 'Edit' }).click();
      const dialog = owner.getByRole('dialog', { name: 'Edit Form' });
      await dialog.getByRole('tab', { name: 'Files' }).click();
      await dialog.getByText('Accept files', { exact: true }).click();
      await dialog.getByRole('button', { name: 'Save file settings' }).click();
      await owner.getByText(/saved/i).first().waitFor({ timeout: 20_000 });
      await e2e.shot(owner, 'files-tab-saved');
      await owner.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // The embed code now has a file input in a multipart form.
      await formCard(owner, 'Job applications').getByRole('button', { name: 'Embed code' }).click();
      const embed = owner.getByLabel('Embed code');
      await expect.poll(() => embed.inputValue(), { timeout: 20_000 }).toContain('type="file"');
      const snippet = await embed.inputValue();
      expect(snippet).toContain('enctype="multipart/form-data"');
      await closeEmbedDialog(owner);

      await openMessagesTab(owner);
      await owner.getByText(EMPTY_INBOX).waitFor();

      // The visitor attaches both files on the customer's site and sends the form.
      thirdParty.setPage('/apply', pageWith('Apply', snippet));
      const visitor = await e2e.newPage();
      await visitor.goto(`${thirdParty.origin}/apply`);
      await visitor.getByLabel('Name', { exact: true }).fill('Ada Visitor');
      await visitor.getByLabel('Email', { exact: true }).fill('ada.visitor@example.org');
      await visitor.getByLabel('Message', { exact: true }).fill('My CV and photo, attached.');
      await visitor.getByLabel(/Attachments/).setInputFiles([
        { name: 'photo.png', mimeType: 'image/png', buffer: PNG },
        { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF },
      ]);
      const posted = visitor.waitForResponse(
        (response) =>
          response.request().method() === 'POST' &&
          response.url().includes(`/functions/v1/forms/${formId}`),
      );
      await visitor.getByRole('button', { name: 'Send' }).click();
      expect((await posted).status()).toBe(303);

      // Live in the owner's open inbox, with both files.
      const card = messageCard(owner, 'Ada Visitor');
      await card.waitFor({ timeout: 30_000 });
      await expect.poll(() => card.innerText(), { timeout: 20_000 }).toMatch(/photo\.png/);
      expect(await card.innerText()).toMatch(/cv\.pdf/);
      await card.click();
      const detail = owner.getByRole('dialog', { name: 'Message from Ada Visitor' });
      await detail.waitFor();
      const thumbnail = detail.locator('img');
      await thumbnail.first().waitFor({ timeout: 20_000 });
      expect(await thumbnail.count()).toBe(1);
      await e2e.shot(owner, 'message-with-files');

      for (const [name, bytes] of [
        ['photo.png', PNG],
        ['cv.pdf', PDF],
      ] as const) {
        const downloading = owner.waitForEvent('download');
        await detail.getByRole('button', { name: `Download ${name}` }).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toBe(name);
        const saved = await download.path();
        expect((await readFile(saved!)).equals(bytes)).toBe(true);
      }

      // Only the owner: another user and anon can neither read nor list the files.
      const pool = superuserPool(stack.dbUrl);
      try {
        const { rows } = await pool.query<{ object_key: string }>(
          `select f.object_key from public.entry_files f join public.entries e on e.id = f.entry_id
            where e.form_id = $1 order by f.position`,
          [formId],
        );
        expect(rows).toHaveLength(2);
        const folder = rows[0]!.object_key.split('/').slice(0, 3).join('/');
        const other = await signUp('Other Files Owner');
        const anon = newClient();
        for (const [who, client] of [
          ['another user', other.client],
          ['anon', anon],
        ] as const) {
          for (const { object_key: key } of rows) {
            const { data, error } = await client.storage.from(BUCKET).download(key);
            expect(data, `${who} read ${key}`).toBeNull();
            expect(error, who).not.toBeNull();
            const signed = await client.storage.from(BUCKET).createSignedUrl(key, 60);
            expect(signed.data, `${who} signed ${key}`).toBeNull();
          }
          const listed = await client.storage.from(BUCKET).list(folder);
          expect(listed.data ?? [], `${who} listed`).toEqual([]);
        }
        await pool.query('delete from auth.users where id = $1', [other.id]);
      } finally {
        await pool.end();
      }
    },
  );
});
