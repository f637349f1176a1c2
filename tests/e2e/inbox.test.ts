// The inbox's spam handling, export and search in Chromium: posts caught by the honeypot wait in
// the 'Spam' view, 'Not spam' moves one back to the 'Inbox', 'Export CSV' downloads the current
// view (search included) as a UTF-8 CSV (with a byte-order mark) whose fields are all quoted and
// whose formula-looking cells, and parts of cells after a `;` or `,`, are neutralised. Custom
// fields (a repeated one included) show in the order sent on the card and in the message, are
// found by the search and exported in that order; at 390 px a card never scrolls sideways.
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

  it(
    'shows custom fields in the order sent, finds them, exports them, and fits 390 px',
    { timeout: 150_000 },
    async () => {
      const page = await e2e.newPage();
      const owner = await signedInUser(page, 'Custom Fields Owner');
      const formId = await createForm(owner.client, 'Pizza order', { allowed_origin: ORIGIN });
      await submitToForm(formId, ORIGIN, {
        name: 'Plain Paul',
        email: 'paul@example.org',
        message: 'No extras, thanks',
      });
      // Sent as size, topping (twice), delivery_note, a; jsonb alone would hand them back as a,
      // topping, zeta_size, delivery_note (shorter keys first).
      await submitToForm(formId, ORIGIN, {
        name: 'Carla Custom',
        email: 'carla@example.org',
        message: 'One pizza, please',
        zeta_size: 'Large',
        topping: ['Olives', '=Basil'],
        delivery_note: 'Ring twice at the blue door',
        a: 'x',
      });
      const order = ['zeta_size', 'topping', 'delivery_note', 'a'];

      // The card: the first two in the order sent (the list on one line), then how many more.
      await openMessagesTab(page);
      const card = messageCard(page, 'Carla Custom');
      await card.waitFor();
      const terms = await card.locator('dt').allInnerTexts();
      expect(terms).toEqual(['From', 'Email', 'Message', 'zeta_size', 'topping']);
      const values = await card.locator('dd').allInnerTexts();
      expect(values.slice(3)).toEqual(['Large', 'Olives, =Basil']);
      expect(await card.getByText('+2 more fields', { exact: true }).isVisible()).toBe(true);
      expect(
        await messageCard(page, 'Plain Paul')
          .getByText(/more field/)
          .count(),
      ).toBe(0);
      await e2e.shot(page, 'custom-fields-card');

      // The message: every field in the order sent, the repeated one as a list.
      await card.click();
      const drawer = page.getByRole('dialog', { name: 'Message from Carla Custom' });
      await drawer.getByText('Other fields').waitFor();
      const drawerTerms = await drawer.locator('dt').allInnerTexts();
      expect(drawerTerms.slice(-4)).toEqual(order);
      const toppings = drawer.getByRole('list', { name: 'topping' });
      expect(await toppings.getByRole('listitem').allInnerTexts()).toEqual(['Olives', '=Basil']);
      await e2e.shot(page, 'custom-fields-drawer');
      await page.getByRole('button', { name: 'Close message' }).click();
      await drawer.waitFor({ state: 'detached' });

      // The search finds the message by a custom field's value, and by an item of the list.
      const search = page.getByLabel('Search messages', { exact: true });
      await search.fill('blue door');
      await messageCard(page, 'Plain Paul').waitFor({ state: 'detached' });
      await card.waitFor();
      expect(await listedNames(page)).toEqual(['Carla Custom']);
      await search.fill('olives');
      await card.waitFor();
      expect(await listedNames(page)).toEqual(['Carla Custom']);
      await search.fill('');
      await messageCard(page, 'Plain Paul').waitFor();

      // The CSV: one column per custom field in the order sent, the list's items joined by "; ",
      // each neutralised.
      const rows = parseCsv((await exportCsv(page)).bytes.toString('utf8'));
      const header = rows[0]!;
      // The Files column (uploads) sits after the message; these messages have none.
      expect(header).toEqual(['Date', 'Form', 'Name', 'Email', 'Message', 'Files', ...order]);
      const carla = rows.find((row) => row[2] === 'Carla Custom')!;
      expect(carla[5]).toBe('');
      expect(carla.slice(6)).toEqual([
        'Large',
        "Olives; '=Basil",
        'Ring twice at the blue door',
        'x',
      ]);
      const paul = rows.find((row) => row[2] === 'Plain Paul')!;
      expect(paul.slice(6)).toEqual(['', '', '', '']);

      // At 390 px the card wraps the form's id and its fields instead of scrolling sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await card.waitFor();
      const formIdLine = card.getByText(/^Form ID:/);
      expect(await formIdLine.innerText()).toBe(`Form ID: ${formId}`);
      expect(await card.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      expect(
        await formIdLine.evaluate((el) => {
          const box = el.getBoundingClientRect();
          const cardBox = el.closest('article')!.getBoundingClientRect();
          return box.right <= cardBox.right && el.scrollWidth <= el.clientWidth;
        }),
      ).toBe(true);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await e2e.shot(page, 'custom-fields-card-390');
    },
  );
});
