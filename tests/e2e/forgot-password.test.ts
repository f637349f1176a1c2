// Password reset in Chromium, as a user who forgot theirs: 'Forgot password?' on /login, the
// e-mail from the mail catcher, its link back to the site, a new password, and signing in with
// it (the old one no longer works).
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { submitLogin, waitForPath } from './support/auth';
import { linksIn, waitForMailTo } from './support/mail';
import { newClient, signUp } from '../support/supabase-users';

describe('forgot password in Chromium', () => {
  const e2e = useE2e('forgot-password');

  it('resets the password through the e-mailed link', { timeout: 120_000 }, async () => {
    const user = await signUp('Forgetful User');
    const page = await e2e.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const sent = page.getByRole('status').filter({ hasText: user.email });
    await sent.waitFor();
    await e2e.shot(page, 'reset-requested');

    // The mail's link leads back to this site's login page, where a new password is set.
    const mail = await waitForMailTo(user.email);
    const link = linksIn(mail).find((href) => href.includes('/auth/v1/verify'));
    expect(link, `a verify link in:\n${mail.text ?? mail.html}`).toBeDefined();
    expect(new URL(link!).searchParams.get('redirect_to')).toBe(`${e2e.url}/login`);
    await page.goto(link!);
    const setNew = page.getByRole('heading', { name: 'Set a new password', level: 1 });
    const dashboard = page.getByRole('heading', { name: 'Dashboard', level: 1 });
    await setNew.or(dashboard).first().waitFor();
    expect(
      new URL(page.url()).pathname,
      'the reset link must open the new-password form, not sign straight into the dashboard',
    ).toBe('/login');
    await setNew.waitFor();
    await page.getByLabel('New password', { exact: true }).fill('fresh-start-77');
    await e2e.shot(page, 'set-new-password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await waitForPath(page, '/dashboard');
    await dashboard.waitFor();

    // Signed out and in again: the new password works, the old one no longer does.
    // The sidebar's button, which stays where it is: on a loaded machine the header menu's item
    // can still be moving into place when the click lands (header.test.tsx tests that menu).
    await page.getByRole('button', { name: 'Log out' }).click();
    await waitForPath(page, '/login');
    await submitLogin(page, user.email, user.password);
    await page.getByRole('alert').filter({ hasText: 'Invalid login credentials' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('fresh-start-77');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await waitForPath(page, '/dashboard');

    const check = await newClient().auth.signInWithPassword({
      email: user.email,
      password: 'fresh-start-77',
    });
    expect(check.error).toBeNull();
  });
});
