// Signing up as a new user does it with confirmations on: supabase-js `auth.signUp` (no session
// yet), the sign-up confirmation mail from the mail catcher, and its link, which answers with a
// redirect carrying the session in the fragment.
import { isTo, readableText, waitForMail, type CaughtMail } from './mail.ts';

export interface ConfirmationMail {
  mail: CaughtMail;
  /** The mail's GET /auth/v1/verify link. */
  link: string;
  /** The six-digit code for `verifyOtp({ email, token, type: 'email' })`. */
  code: string;
}

/** Waits for the newest sign-up confirmation mail to `email` (after `since`, if given). */
export async function confirmationMailFor(
  mailWebUrl: string,
  email: string,
  options: { since?: Set<string>; timeoutMs?: number } = {},
): Promise<ConfirmationMail> {
  const mail = await waitForMail(
    mailWebUrl,
    (m) => isTo(m, email) && /confirm your signup/i.test(m.subject) && !options.since?.has(m.id),
    options.timeoutMs ?? 10_000,
  );
  const link = /(https?:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(readableText(mail))?.[1];
  const code = /code: (\d{6})/.exec(readableText(mail))?.[1];
  if (!link || !code)
    throw new Error(`confirmation mail without link or code: ${readableText(mail)}`);
  return { mail, link, code };
}

export interface FollowedLink {
  /** Where the link redirected, without the fragment. */
  location: URL;
  /** The fragment's parameters: the session (access_token, refresh_token, type…) or an error. */
  fragment: URLSearchParams;
}

/** Opens a verify link as a browser would and reads the redirect it answers with. */
export async function followLink(link: string): Promise<FollowedLink> {
  const res = await fetch(link, { redirect: 'manual' });
  if (res.status !== 303) throw new Error(`${link} answered ${res.status}, not a 303 redirect`);
  const location = new URL(res.headers.get('location')!);
  const fragment = new URLSearchParams(location.hash.slice(1));
  location.hash = '';
  return { location, fragment };
}
