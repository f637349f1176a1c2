// What the newsletter works with, whatever stores it: a sign-up as it asks storage to record it
// (address, client hash, both tokens and the rendered e-mail) and storage's answer.
import type { ConfirmationMail } from './mail.ts';

export interface SignupInput {
  email: string;
  ipHash: string;
  confirmToken: string;
  unsubscribeToken: string;
  mail: ConfirmationMail;
}

export type SignupResult =
  | { status: 'accepted'; deliveryId: string | null }
  | { status: 'rate_limited'; retryAfter: number };

/** A signup to an owner's list from its form, as list_subscribe() takes it. */
export interface ListSignupInput {
  listId: string;
  email: string;
  name: string | null;
  /** The page's origin (Origin, else the Referer's); the database compares the list's. */
  origin: string | null;
  /** The salted hash standing in for the client. */
  client: string;
  confirmToken: string;
  /** The confirmation link without its token, which the database appends. */
  linkPrefix: string;
}

/** list_subscribe()'s answer: `ok` for every valid address alike (new, pending or confirmed). */
export type ListSignupResult =
  | { status: 'ok' }
  | { status: 'not_found' }
  | { status: 'foreign_origin' }
  | { status: 'invalid'; field: 'email' | 'name'; message: string }
  | { status: 'rate_limited'; retryAfter: number };

export type ListConfirmResult = { status: 'confirmed'; listName: string } | { status: 'invalid' };

export type ListUnsubscribeResult =
  { status: 'unsubscribed'; listName: string } | { status: 'invalid' };

/** Storage and settings of the owners' list routes (lists.ts). */
export interface ListsDeps {
  /** list_subscribe(): origin, client allowance, the address and its confirmation e-mail. */
  subscribe(input: ListSignupInput): Promise<ListSignupResult>;
  confirm(token: string): Promise<ListConfirmResult>;
  /** list_unsubscribe(), once the link's signature is verified; campaign null for '-'. */
  unsubscribe(subscriberId: string, campaignId: string | null): Promise<ListUnsubscribeResult>;
  /** The salted hash standing in for the request's client, apart from the footer's. */
  clientHash(req: Request): Promise<string>;
  /** What the one-click links are signed with (_shared/list-unsubscribe.ts). */
  linkSecret: string;
}
