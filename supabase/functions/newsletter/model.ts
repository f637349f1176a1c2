// What the newsletter works with, whatever stores it: a signup to a list as it asks storage to
// record it, and storage's answers.
import type { CaptchaProvider, CaptchaVerdict } from '../_shared/captcha.ts';

/** The first step of a signup to an owner's list (list_signup_attempt()). */
export interface ListSignupAttempt {
  /** null: the site's own list (the footer's signup), whose origin is not compared. */
  listId: string | null;
  /** The page's origin (Origin, else the Referer's); the database compares the list's. */
  origin: string | null;
  /** The salted hash standing in for the client, counted whatever follows. */
  client: string;
}

/** list_signup_attempt()'s answer: go on (with the list's CAPTCHA, if any), or why not. */
export type ListSignupGate =
  | {
      status: 'ok';
      /** The list (the site's, when none was named). */
      listId: string;
      captcha: { provider: CaptchaProvider; secret: string | null } | null;
    }
  | { status: 'not_found' }
  | { status: 'foreign_origin' }
  | { status: 'rate_limited'; retryAfter: number };

/** A signup to an owner's list from its form, as list_subscribe() takes it. */
export interface ListSignupInput {
  listId: string;
  email: string;
  name: string | null;
  confirmToken: string;
  /** The confirmation link without its token, which the database appends. */
  linkPrefix: string;
}

/** list_subscribe()'s answer: `ok` for every valid address alike (new, pending or confirmed). */
export type ListSignupResult =
  | { status: 'ok' }
  | { status: 'not_found' }
  | { status: 'invalid'; field: 'email' | 'name'; message: string };

export type ListConfirmResult = { status: 'confirmed'; listName: string } | { status: 'invalid' };

export type ListUnsubscribeResult =
  { status: 'unsubscribed'; listName: string } | { status: 'invalid' };

/** Storage and settings of the owners' list routes (lists.ts). */
export interface ListsDeps {
  /** list_signup_attempt(): the list, the page's origin and the client's allowance. */
  attempt(input: ListSignupAttempt): Promise<ListSignupGate>;
  /** list_subscribe(): the address and its confirmation e-mail. */
  subscribe(input: ListSignupInput): Promise<ListSignupResult>;
  /** The provider's verdict on a visitor's CAPTCHA token, checked with the list's secret. */
  checkCaptcha(input: ListCaptchaCheck): Promise<CaptchaVerdict>;
  confirm(token: string): Promise<ListConfirmResult>;
  /** list_unsubscribe_token(): an unsubscribe link of earlier footer mail. */
  unsubscribeToken(token: string): Promise<ListUnsubscribeResult>;
  /** list_unsubscribe(), once the link's signature is verified; campaign null for '-'. */
  unsubscribe(subscriberId: string, campaignId: string | null): Promise<ListUnsubscribeResult>;
  /** The salted hash standing in for the request's client, apart from the footer's. */
  clientHash(req: Request): Promise<string>;
  /** What the one-click links are signed with (_shared/list-unsubscribe.ts). */
  linkSecret: string;
}

/** A list signup's CAPTCHA token and what it is checked with. */
export interface ListCaptchaCheck {
  listId: string;
  provider: CaptchaProvider;
  /** The list's secret as list_signup_attempt() answered it (null: none stored). */
  secret: string | null;
  token: string | null;
  remoteIp: string | null;
  /** The list's site, where the challenge must have been solved. */
  origin: string | null;
}
