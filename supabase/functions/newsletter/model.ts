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
