// Accounts in Chromium: registering through /register shows "Check your inbox" naming the
// address, and the link of the confirmation mail lands on the dashboard signed in, greeting the new
// user by name; signing in before confirming says to confirm first and sends the link again; a
// wrong password shows the server's message under the login form; and a visitor sent from a
// signed-in page to /login comes back to that page after signing in.
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { seriousViolations } from './support/a11y';
import {
  confirmationLink,
  newAccount,
  submitLogin,
  submitRegistration,
  waitForPath,
} from './support/auth';
import { waitForMailTo } from './support/mail';
import { confirmationMailFor } from '../support/confirmation';
import { newClient, signUp } from '../support/supabase-users';
import { testStack } from '../support/stack.ts';

describe('register and sign in in Chromium', () => {
  const e2e = useE2e('register');

  it(
    'registers through /register, is asked to check the inbox, and the mailed link lands on the dashboard greeted by name',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage();
      const account = newAccount('Ada Lovelace');
      await page.goto('/register');
      await submitRegistration(page, account);

      // No session yet: the page names the address the link went to.
      await page.getByRole('heading', { name: 'Check your inbox', level: 1 }).waitFor();
      const message = page.getByText(`We sent a confirmation link to ${account.email}`);
      await message.waitFor();
      expect(await message.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.getByRole('button', { name: 'Resend confirmation link' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/register');
      expect(await seriousViolations(page)).toEqual([]);
      await e2e.shot(page, 'check-inbox');
      // Until the link is followed the account cannot sign in.
      const early = await newClient().auth.signInWithPassword({
        email: account.email,
        password: account.password,
      });
      expect(early.error?.code).toBe('email_not_confirmed');

      // The link in the mail leads back to this site's dashboard, signed in.
      const link = await confirmationLink(account.email);
      expect(new URL(link).searchParams.get('redirect_to')).toBe(`${e2e.url}/dashboard`);
      await page.goto(link);
      await waitForPath(page, '/dashboard');
      const welcome = page.getByText(/welcome/i).filter({ hasText: account.name });
      await welcome.first().waitFor({ timeout: 15_000 });
      expect(await welcome.first().innerText()).toContain(account.name);
      await e2e.shot(page, 'registered-dashboard');

      // The account really exists: the header's profile menu names it.
      await page.getByRole('button', { name: 'Open profile menu' }).click();
      const menu = page.getByRole('menu', { name: 'Profile' });
      await menu.waitFor();
      expect(await menu.innerText()).toContain(account.email);
    },
  );

  it(
    'asks an unconfirmed account to confirm first at sign-in; the link sent again signs in',
    { timeout: 120_000 },
    async () => {
      const account = newAccount('Late Confirmer');
      const signUpPage = await e2e.newPage();
      await signUpPage.goto('/register');
      await submitRegistration(signUpPage, account);
      await signUpPage.getByRole('heading', { name: 'Check your inbox', level: 1 }).waitFor();
      const first = await waitForMailTo(account.email, /confirm your signup/i);

      // Later, in another browser: signing in says what is missing, and sends the link again.
      const page = await e2e.newPage();
      await page.goto('/login');
      await submitLogin(page, account.email, account.password);
      const notice = page.getByRole('alert').filter({ hasText: 'Confirm your e-mail first' });
      await notice.waitFor({ timeout: 15_000 });
      expect(await notice.innerText()).toContain(account.email);
      await page.getByRole('button', { name: 'Resend confirmation link' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `A new link is on its way to ${account.email}.` })
        .waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      await e2e.shot(page, 'confirm-first');

      const resent = await confirmationMailFor(testStack().mailWebUrl, account.email, {
        since: new Set([first.id]),
        timeoutMs: 20_000,
      });
      await page.goto(resent.link);
      await waitForPath(page, '/dashboard');
      await page
        .getByText(/welcome/i)
        .filter({ hasText: account.name })
        .first()
        .waitFor();
    },
  );

  it(
    'shows the server message in the red line when the password is wrong',
    { timeout: 60_000 },
    async () => {
      const user = await signUp('Wrong Password');
      const page = await e2e.newPage();
      await page.goto('/login');
      await submitLogin(page, user.email, 'not-the-password');
      const alert = page.getByRole('alert').filter({ hasText: 'Invalid login credentials' });
      await alert.waitFor({ timeout: 15_000 });
      // Red: the line carries an error colour, not the body text's.
      const color = await alert.evaluate((element) => getComputedStyle(element).color);
      const [r, g, b] = color.match(/\d+/g)!.map(Number);
      expect(r).toBeGreaterThan(150);
      expect(g).toBeLessThan(100);
      expect(b).toBeLessThan(100);
      expect(new URL(page.url()).pathname).toBe('/login');
      await e2e.shot(page, 'wrong-password');
    },
  );

  it(
    'returns to /settings after the guard sent the visitor to /login',
    { timeout: 60_000 },
    async () => {
      const user = await signUp('Return Address');
      const page = await e2e.newPage();
      await page.goto('/settings');
      await waitForPath(page, '/login');
      await submitLogin(page, user.email, user.password);
      await waitForPath(page, '/settings');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    },
  );
});
