// A form's Edit dialog in Chromium: every tab shows at once at 1280 px (none behind an overflow),
// and at 390 px the strip scrolls with every tab reachable; each tab saves with its own button, an
// unsaved change marks its tab and closing asks first; retention's number of days sits under its
// choice; and a retention rule that would delete stored messages asks first, saying how many.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createForm, serviceClient, serviceInsertEntry } from '../support/supabase-users';
import { signedInUser } from './support/auth';
import { formCard, openFormsTab } from './support/forms';
import { useE2e } from './support/session';

const TABS = ['Form', 'Webhooks', 'Autoresponder', 'Spam protection', 'Retention', 'Files'];

async function openEdit(page: Page, name: string): Promise<Locator> {
  await formCard(page, name).getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Form' });
  await dialog.getByLabel('Form name', { exact: true }).waitFor();
  return dialog;
}

/** How far each tab sticks out of the tab strip's visible box (0 when it shows whole). */
async function tabOverflow(dialog: Locator): Promise<Record<string, number>> {
  return dialog.getByRole('tablist').evaluate((list) => {
    const box = list.getBoundingClientRect();
    const out: Record<string, number> = {};
    for (const tab of list.querySelectorAll('[role="tab"]')) {
      const r = tab.getBoundingClientRect();
      out[tab.textContent ?? ''] = Math.max(0, box.left - r.left, r.right - box.right);
    }
    return out;
  });
}

describe('the Edit dialog in Chromium', () => {
  const e2e = useE2e('edit-dialog');

  it(
    'shows every tab at 1280 px and reaches each one at 390 px',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage();
      const owner = await signedInUser(page, 'Tab Keeper');
      await createForm(owner.client, 'Tabbed');
      await openFormsTab(page);
      const dialog = await openEdit(page, 'Tabbed');

      const tabs = await dialog.getByRole('tab').allInnerTexts();
      expect(tabs).toEqual(TABS);
      // Whole, to the pixel (sub-pixel rounding aside).
      expect(Object.values(await tabOverflow(dialog)).every((px) => px < 1)).toBe(true);
      const strip = dialog.getByRole('tablist');
      expect(await strip.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      await e2e.shot(page, 'tabs-1280');

      // At 390 px the strip scrolls inside the dialog: each tab is brought into view and selected.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const name of [...TABS].reverse()) {
        const tab = dialog.getByRole('tab', { name, exact: true });
        await tab.click();
        await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
        expect((await tabOverflow(dialog))[name]).toBeLessThan(1);
      }
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await e2e.shot(page, 'tabs-390');
    },
  );

  it('marks unsaved changes, keeps them across tabs and asks before closing', async () => {
    const page = await e2e.newPage();
    const owner = await signedInUser(page, 'Draft Keeper');
    await createForm(owner.client, 'Drafty');
    await openFormsTab(page);
    const dialog = await openEdit(page, 'Drafty');

    await dialog.getByRole('tab', { name: 'Autoresponder', exact: true }).click();
    const subject = dialog.getByLabel('Subject', { exact: true });
    await subject.fill('Thanks, we got it');
    const marked = dialog.getByRole('tab', { name: 'Autoresponder (unsaved changes)' });
    await marked.waitFor();
    await dialog.getByRole('tab', { name: 'Retention', exact: true }).click();
    await dialog.getByText('Unsaved changes: Autoresponder.', { exact: false }).waitFor();
    await marked.click();
    expect(await subject.inputValue()).toBe('Thanks, we got it');
    await e2e.shot(page, 'unsaved-marked');

    await page.keyboard.press('Escape');
    const ask = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await ask.waitFor();
    expect(await ask.innerText()).toContain('Autoresponder has changes that are not saved.');
    await e2e.shot(page, 'unsaved-ask');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);

    // Saved with the tab's own button: nothing left to ask about.
    await dialog.getByRole('button', { name: 'Save reply' }).click();
    await dialog.getByRole('tab', { name: 'Autoresponder', exact: true }).waitFor();
    await dialog
      .getByRole('button', { name: 'Close', exact: true })
      .filter({ hasText: 'Close' })
      .click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('alertdialog').count()).toBe(0);
  });

  it(
    'asks before a retention rule that deletes stored messages, saying how many',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage();
      const owner = await signedInUser(page, 'Retention Keeper');
      const formId = await createForm(owner.client, 'Old mail');
      const service = serviceClient();
      const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
      for (const age of [40, 35, 31, 1])
        await serviceInsertEntry(service, formId, { created_at: daysAgo(age) });
      await openFormsTab(page);
      const dialog = await openEdit(page, 'Old mail');
      await dialog.getByRole('tab', { name: 'Retention', exact: true }).click();
      const retention = dialog.getByRole('form', { name: 'Retention' });
      await retention.waitFor();

      // The number of days sits right under its choice, before the next one.
      await retention.getByText('Delete messages after a number of days').click();
      const days = retention.getByLabel('Days to keep messages');
      await days.fill('30');
      const [daysBox, forwardBox] = await Promise.all([
        days.boundingBox(),
        retention.getByText('Forward only, don’t store').boundingBox(),
      ]);
      expect(daysBox!.y + daysBox!.height).toBeLessThanOrEqual(forwardBox!.y);
      await e2e.shot(page, 'retention-days');

      await retention.getByRole('button', { name: 'Save retention' }).click();
      const ask = page.getByRole('alertdialog', { name: 'Delete 3 messages?' });
      await ask.waitFor();
      expect(await ask.innerText()).toContain(
        'The 3 messages of this form older than 30 days will be deleted',
      );
      await e2e.shot(page, 'retention-ask');
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      const none = await owner.client.from('form_retention').select('mode').eq('form_id', formId);
      expect(none.data).toEqual([]);

      await retention.getByRole('button', { name: 'Save retention' }).click();
      await ask.waitFor();
      await ask.getByRole('button', { name: 'Save and delete' }).click();
      await ask.waitFor({ state: 'detached' });
      await expect
        .poll(async () => {
          const { data } = await owner.client
            .from('form_retention')
            .select('mode, days')
            .eq('form_id', formId);
          return data;
        })
        .toEqual([{ mode: 'days', days: 30 }]);

      // A rule that deletes nothing stored is saved without asking.
      await retention.getByLabel('Days to keep messages').fill('60');
      await retention.getByRole('button', { name: 'Save retention' }).click();
      await expect
        .poll(async () => {
          const { data } = await owner.client
            .from('form_retention')
            .select('days')
            .eq('form_id', formId);
          return data;
        })
        .toEqual([{ days: 60 }]);
      expect(await page.getByRole('alertdialog').count()).toBe(0);
    },
  );
});
