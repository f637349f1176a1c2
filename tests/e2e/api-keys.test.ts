// API keys in Chromium: an owner creates a key in /settings and sees it once (focused, copyable,
// with its warning), the key reads the owner's forms through the real `forms-api` function, the
// list then shows only its prefix and last use, and once revoked in the dialog the key gets 401.
// axe finds no serious issue with the key shown or the revoke dialog open, at phone width (390 px;
// the signed-in accessibility suite checks /settings at desktop width).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API_KEYS } from '../../supabase/functions/_shared/limits.ts';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { seriousViolations } from './support/a11y';
import { createForm } from '../support/supabase-users';
import { testStack } from '../support/stack.ts';

const listForms = (key: string) =>
  fetch(`${testStack().apiUrl}/functions/v1/forms-api/forms`, {
    headers: { authorization: `Bearer ${key}` },
  });

/** axe's serious problems plus any sideways scrolling, as readable lines. */
async function problems(page: Page): Promise<string[]> {
  const found = await seriousViolations(page);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  if (overflow > 0) found.push(`the page scrolls sideways by ${overflow}px`);
  return found;
}

/** Phone width: where the key's field and buttons must still fit. */
const width = 390;

describe('API keys in Chromium', () => {
  const e2e = useE2e('api-keys');

  it(
    'creates a key shown once, which reads the API until it is revoked',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage({
        width,
        height: 844,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      const user = await signedInUser(page, `Key Maker ${width}`);
      const formId = await createForm(user.client, 'Leads');
      await page.goto('/settings');
      const section = page.getByRole('region', { name: 'API keys' });
      await section.getByText(/No API keys yet/).waitFor();

      await section.getByLabel('Key name').fill('CRM sync');
      await section.getByLabel('Access').selectOption('read_only');
      await section.getByRole('button', { name: 'Create key' }).click();
      const field = section.getByLabel('New API key');
      await field.waitFor();
      const key = await field.inputValue();
      expect(key).toMatch(new RegExp(`^${API_KEYS.prefix}[0-9a-f]{64}$`));
      expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
      await section.getByText('Copy your new key now').waitFor();
      await section.getByRole('button', { name: 'Copy key' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await e2e.shot(page, 'key-shown');
      expect(await problems(page), 'with the new key shown').toEqual([]);

      const answer = await listForms(key);
      expect(answer.status).toBe(200);
      const { forms } = (await answer.json()) as { forms: { id: string }[] };
      expect(forms.map((f) => f.id)).toEqual([formId]);

      await section.getByRole('button', { name: 'I have copied it' }).click();
      await field.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(key);
      // After a reload the list shows the key's prefix and its use, never the key.
      await page.reload();
      const row = section.getByRole('listitem').filter({ hasText: 'CRM sync' });
      await row.waitFor();
      expect(await row.innerText()).toContain(`${key.slice(0, API_KEYS.visiblePrefixLength)}…`);
      expect(await row.innerText()).toMatch(/last used/);
      expect(await page.content()).not.toContain(key);

      await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Revoke “CRM sync”?' });
      await dialog.waitFor();
      expect(await problems(page), 'with the revoke dialog open').toEqual([]);
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('API key revoked').first().waitFor();
      await section.getByText(/No API keys yet/).waitFor();

      expect((await listForms(key)).status).toBe(401);
    },
  );
});
