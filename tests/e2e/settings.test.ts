// Account settings in Chromium: a new display name shows in the header's profile menu at once;
// a password change asks for the current password, a new password is the one that signs in
// afterwards and a notice of the change is mailed; and deleting the account signs the user
// out, takes their forms' endpoints down (404) and leaves nothing to sign in to.
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser, submitLogin, waitForPath } from './support/auth';
import { waitForMailTo } from './support/mail';
import { markPage, pageMarker } from './support/messages';
import { createForm, newClient } from '../support/supabase-users';
import type { Page } from 'playwright-core';
import { testStack } from '../support/stack.ts';

async function openSettings(page: Page): Promise<void> {
  await page.goto('/settings');
  await page.getByLabel('Display name', { exact: true }).waitFor();
}

/** The text of the header's profile menu (opened, read, closed again). */
async function profileMenuText(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Open profile menu' }).click();
  const menu = page.getByRole('menu', { name: 'Profile' });
  await menu.waitFor();
  const text = await menu.innerText();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return text;
}

describe('settings in Chromium', () => {
  const e2e = useE2e('settings');

  it('shows a new display name in the profile menu at once', { timeout: 90_000 }, async () => {
    const page = await e2e.newPage();
    const user = await signedInUser(page, 'Old Name');
    await openSettings(page);
    expect(await profileMenuText(page)).toContain('Old Name');
    await markPage(page, 'settings');

    const input = page.getByLabel('Display name', { exact: true });
    expect(await input.inputValue()).toBe('Old Name');
    await input.fill('Brand New Name');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => profileMenuText(page), { timeout: 15_000 }).toContain('Brand New Name');
    expect(await pageMarker(page)).toBe('settings');
    await e2e.shot(page, 'display-name-saved');

    const { data } = await user.client.auth.getUser();
    expect(data.user?.user_metadata.name).toBe('Brand New Name');
  });

  it(
    'asks for the current password, then signs in with the new one and mails a notice',
    { timeout: 90_000 },
    async () => {
      const page = await e2e.newPage();
      const user = await signedInUser(page, 'Password Changer');
      await openSettings(page);
      // A wrong current password changes nothing.
      await page.getByLabel('Current password', { exact: true }).fill('not-my-password');
      await page.getByLabel('New password', { exact: true }).fill('a-new-secret-42');
      await page.getByLabel('Confirm new password', { exact: true }).fill('a-new-secret-42');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('That is not your current password. Nothing was changed.').waitFor();
      await e2e.shot(page, 'password-wrong-current');
      const unchanged = await newClient().auth.signInWithPassword({
        email: user.email,
        password: user.password,
      });
      expect(unchanged.error).toBeNull();

      await page.getByLabel('Current password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed').first().waitFor();
      const notice = await waitForMailTo(user.email, /password was changed/i);
      expect(notice.subject).toBe('Your tinyback password was changed');

      const fresh = newClient();
      const old = await fresh.auth.signInWithPassword({
        email: user.email,
        password: user.password,
      });
      expect(old.error?.message).toBe('Invalid login credentials');
      const renewed = await fresh.auth.signInWithPassword({
        email: user.email,
        password: 'a-new-secret-42',
      });
      expect(renewed.error).toBeNull();
    },
  );

  it(
    'deletes the account: signed out, its form endpoint gone, no way back in',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage();
      const user = await signedInUser(page, 'Leaving User');
      const formId = await createForm(user.client, 'Soon gone');
      const endpoint = `${testStack().apiUrl}/functions/v1/forms/${formId}`;
      const post = () =>
        fetch(endpoint, {
          method: 'POST',
          headers: { Origin: 'https://example.test', Accept: 'application/json' },
          body: new URLSearchParams({ name: 'Visitor', email: 'v@example.org', message: 'Hi' }),
        });
      // The form takes posts before the deletion.
      expect((await post()).status).toBe(200);

      await openSettings(page);
      await page.getByRole('button', { name: 'Delete account' }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      const confirm = dialog.getByRole('button', { name: 'Delete my account' });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Type your e-mail to confirm').fill(user.email);
      await e2e.shot(page, 'delete-account-dialog');
      await confirm.click();

      // Signed out: the header offers Login again, and the dashboard is closed.
      await page.getByRole('link', { name: 'Login', exact: true }).waitFor({ timeout: 20_000 });
      await page.goto('/dashboard');
      await waitForPath(page, '/login');

      const response = await post();
      expect(response.status).toBe(404);

      await submitLogin(page, user.email, user.password);
      await page.getByRole('alert').filter({ hasText: 'Invalid login credentials' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
    },
  );
});
