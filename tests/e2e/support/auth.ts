// Getting a user into the dashboard: through the real sign-up screens (the register form, the
// "Check your inbox" screen and the link of the confirmation mail), or (when signing up is not the
// flow under test) a confirmed user made with supabase-js followed by a UI sign-in.
import type { Page } from 'playwright-core';
import { signUp, TEST_PASSWORD, type TestUser } from '../../support/supabase-users';
import { uniqueEmail } from '../../support/db';
import { linksIn, waitForMailTo } from './mail';

export type { TestUser };

/** Waits until the page's path is `pathname` (client-side navigations included). */
export async function waitForPath(page: Page, pathname: string, timeout = 20_000): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname, { timeout, waitUntil: 'commit' });
}

/** Fills the /login form (the page must show it) and submits it. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Opens /login, signs in and waits for the dashboard. */
export async function signInThroughUi(page: Page, email: string, password = TEST_PASSWORD) {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await waitForPath(page, '/dashboard');
}

export interface NewAccount {
  name: string;
  email: string;
  password: string;
}

export function newAccount(name: string): NewAccount {
  return {
    name,
    email: uniqueEmail(name.toLowerCase().replace(/\W+/g, '-')),
    password: TEST_PASSWORD,
  };
}

/** Fills the /register form (the page must show it) and submits it. */
export async function submitRegistration(page: Page, account: NewAccount): Promise<void> {
  await page.getByLabel('Full name', { exact: true }).fill(account.name);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
}

/** The GET /auth/v1/verify link of the newest sign-up confirmation mail to `email`. */
export async function confirmationLink(email: string): Promise<string> {
  const mail = await waitForMailTo(email, /confirm your signup/i);
  const link = linksIn(mail).find((href) => href.includes('/auth/v1/verify'));
  if (!link) throw new Error(`no verify link in the confirmation mail:\n${mail.text ?? mail.html}`);
  return link;
}

/**
 * After the register form: the "Check your inbox" screen names the address, and the link of the
 * confirmation mail, opened in `page`, lands on the dashboard signed in.
 */
export async function confirmThroughMail(page: Page, email: string): Promise<void> {
  await page.getByRole('heading', { name: 'Check your inbox', level: 1 }).waitFor();
  await page.getByText(`We sent a confirmation link to ${email}`).waitFor();
  await page.goto(await confirmationLink(email));
  await waitForPath(page, '/dashboard');
  // The link lands on /dashboard#access_token=…: the path matches before supabase-js has read the
  // fragment and stored the session, and leaving the page then would lose it.
  await page.waitForFunction(
    () =>
      !location.hash.includes('access_token') &&
      [...Object.keys(localStorage), ...Object.keys(sessionStorage)].some((key) =>
        /^sb-.+-auth-token$/.test(key),
      ),
    undefined,
    { timeout: 20_000 },
  );
}

/**
 * A confirmed user made through supabase-js (setup, not the flow under test) and then signed in
 * through the login screen of `page`. The returned `client` is the user's own supabase-js client.
 */
export async function signedInUser(page: Page, name: string): Promise<TestUser> {
  const user = await signUp(name);
  await signInThroughUi(page, user.email, user.password);
  return user;
}
