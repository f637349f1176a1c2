// The inbox's spam handling, export and search in Chromium: posts caught by the honeypot wait in
// the 'Spam' view, 'Not spam' moves one back to the 'Inbox', 'Export CSV' downloads the current
// view (search included) as a UTF-8 CSV (with a byte-order mark) whose fields are all quoted and
// whose formula-looking cells, and parts of cells after a `;` or `,`, are neutralised.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { allMessageCards, messageCard, openMessagesTab } from './support/messages';
import { submitToForm } from './support/seed';
import { parseCsv } from './support/csv';
import { createForm } from '../support/supabase-users';

const ORIGIN = 'https://shop.example.com';
const FORMULA = '=HYPERLINK("https://evil.example","Click, here")';
/** A formula behind a `;`, where Excel in de, fr, nl, it, es… splits a line. */
const SEMICOLON_FORMULA = "ok;=cmd|' /C calc'!A0";

/** Clicks 'Export CSV' and returns the downloaded file's bytes. */
async function exportCsv(page: Page): Promise<{ bytes: Buffer; filename: string }> {
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const path = await file.path();
  return { bytes: await readFile(path), filename: file.suggestedFilename() };
}

/** The names listed in the current view. */
async function listedNames(page: Page): Promise<string[]> {
  const labels = await allMessageCards(page).evaluateAll((cards) =>
    cards.map((card) => card.getAttribute('aria-label') ?? ''),
  );
  return labels.map((label) => label.replace(/^Message from /, '')).sort();
}

async function showView(page: Page, view: 'Inbox' | 'Spam'): Promise<void> {
  const button = page.getByRole('button', { name: view, exact: true });
  await button.click();
  await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
}

describe('inbox in Chromium', () => {
  const e2e = useE2e('inbox');

  it(
    'moves a message out of spam with "Not spam", searches, and exports the current view as CSV',
    { timeout: 150_000 },
    async () => {
      const page = await e2e.newPage();
      const owner = await signedInUser(page, 'Inbox Owner');
      const formId = await createForm(owner.client, 'Shop contact', { allowed_origin: ORIGIN });
      await submitToForm(formId, ORIGIN, {
        name: 'Normal Nina',
        email: 'nina@example.org',
        message: 'Do you ship to Iceland?',
      });
      await submitToForm(formId, ORIGIN, {
        name: 'Formula Fred',
        email: 'fred@example.org',
        message: FORMULA,
        company: SEMICOLON_FORMULA,
      });
      await submitToForm(formId, ORIGIN, {
        name: 'Spammy Sam',
        email: 'sam@example.org',
        message: 'Actually a real question about my order, with an ümlaut',
        spam: true,
      });
      await submitToForm(formId, ORIGIN, {
        name: 'Bot Betty',
        email: 'betty@example.org',
        message: 'Cheap followers',
        spam: true,
      });
      const { data: stored } = await owner.client.from('entries').select('name, is_spam');
      expect(
        stored
          ?.filter((row) => row.is_spam)
          .map((row) => row.name)
          .sort(),
      ).toEqual(['Bot Betty', 'Spammy Sam']);

      // The inbox holds the two real messages; the spam view the two caught ones.
      await openMessagesTab(page);
      await messageCard(page, 'Normal Nina').waitFor();
      expect(await listedNames(page)).toEqual(['Formula Fred', 'Normal Nina']);
      await showView(page, 'Spam');
      await messageCard(page, 'Spammy Sam').waitFor();
      expect(await listedNames(page)).toEqual(['Bot Betty', 'Spammy Sam']);
      await e2e.shot(page, 'spam-view');

      // Exported from the spam view: the spam view's rows only.
      const spamExport = await exportCsv(page);
      expect(spamExport.filename).toMatch(/\.csv$/);
      const spamRows = parseCsv(spamExport.bytes.toString('utf8'));
      expect(spamRows[0]?.slice(0, 5)).toEqual(['Date', 'Form', 'Name', 'Email', 'Message']);
      expect(
        spamRows
          .slice(1)
          .map((row) => row[2])
          .sort(),
      ).toEqual(['Bot Betty', 'Spammy Sam']);

      // 'Not spam' moves Sam's message out of the spam view and into the inbox.
      await messageCard(page, 'Spammy Sam').getByRole('button', { name: 'Not spam' }).click();
      await messageCard(page, 'Spammy Sam').waitFor({ state: 'detached' });
      expect(await listedNames(page)).toEqual(['Bot Betty']);
      await showView(page, 'Inbox');
      await messageCard(page, 'Spammy Sam').waitFor();
      expect(await listedNames(page)).toEqual(['Formula Fred', 'Normal Nina', 'Spammy Sam']);
      await e2e.shot(page, 'inbox-after-not-spam');
      const { data: sam } = await owner.client
        .from('entries')
        .select('is_spam')
        .eq('name', 'Spammy Sam')
        .single();
      expect(sam).toEqual({ is_spam: false });

      // Exported from the inbox: UTF-8 with a BOM, header row, the inbox's three rows, and the
      // formula-looking message neutralised with a leading apostrophe.
      const { bytes } = await exportCsv(page);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = bytes.toString('utf8');
      const rows = parseCsv(text);
      const header = rows[0]!;
      expect(header.slice(0, 5)).toEqual(['Date', 'Form', 'Name', 'Email', 'Message']);
      const body = rows.slice(1);
      expect(body.map((row) => row[header.indexOf('Name')]).sort()).toEqual([
        'Formula Fred',
        'Normal Nina',
        'Spammy Sam',
      ]);
      const cell = (name: string, column: string) =>
        body.find((row) => row[header.indexOf('Name')] === name)?.[header.indexOf(column)];
      expect(cell('Formula Fred', 'Message')).toBe(`'${FORMULA}`);
      expect(cell('Formula Fred', 'company')).toBe("ok;'=cmd|' /C calc'!A0");
      expect(cell('Normal Nina', 'Email')).toBe('nina@example.org');
      expect(cell('Normal Nina', 'Form')).toBe('Shop contact');
      expect(cell('Spammy Sam', 'Message')).toContain('ümlaut');
      // No cell of the file starts a formula.
      expect(body.flat().filter((value) => /^[=+\-@]/.test(value))).toEqual([]);
      // Every field is quoted, and split on `;` as a de/fr/nl/it/es Excel does, no part starts one.
      const fileLines = text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter(Boolean);
      expect(fileLines[0]).toMatch(/^"Date","Form","Name","Email","Message"/);
      expect(
        fileLines.flatMap((line) => line.split(';')).filter((part) => /^"*[=+\-@]/.test(part)),
      ).toEqual([]);

      // Searching narrows the view on the server's side, and the export follows the search.
      await page.getByLabel('Search messages', { exact: true }).fill('iceland');
      await messageCard(page, 'Formula Fred').waitFor({ state: 'detached' });
      // The old list leaves before the searched one arrives: wait for the result, then compare.
      await messageCard(page, 'Normal Nina').waitFor();
      expect(await listedNames(page)).toEqual(['Normal Nina']);
      const searched = parseCsv((await exportCsv(page)).bytes.toString('utf8'));
      expect(searched.slice(1).map((row) => row[header.indexOf('Name')])).toEqual(['Normal Nina']);
    },
  );
});
