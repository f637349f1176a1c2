// Accounts in Chromium: registering through /register lands on the dashboard greeting the new
// user by name; a wrong password shows the server's message under the login form; and a visitor
// sent from a signed-in page to /login comes back to that page after signing in.
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { newAccount, registerThroughUi, submitLogin, waitForPath } from './support/auth';
import { signUp } from '../support/supabase-users';

describe('register and sign in in Chromium', () => {
  const e2e = useE2e('register');

  it(
    'registers through /register and lands on the dashboard greeted by name',
    { timeout: 90_000 },
    async () => {
      const page = await e2e.newPage();
      const account = newAccount('Ada Lovelace');
      await registerThroughUi(page, account);
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
