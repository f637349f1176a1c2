// Sign-up confirmation as GoTrue runs it with confirmations on (`[auth.email] enable_confirmations
// = true`, GOTRUE_MAILER_AUTOCONFIRM=false): the new account stays unconfirmed, a one-time token
// is stored as GoTrue stores it (sha224 of e-mail + code, in auth.users.confirmation_token and
// auth.one_time_tokens, with confirmation_sent_at), and the "Confirm Your Signup" mail carries a
// link to GET /verify?type=signup and the code for POST /verify. Following the link or sending the
// code confirms the address and starts a session.
import { randomUUID } from 'node:crypto';
import { composeAuthMail, verifyLink } from './auth-mails.ts';
import { AuthError } from './errors.ts';
import type { AuthMailTemplates } from './mail-templates.ts';
import { escapeHtml, newOtp, OTP_EXPIRY_SECONDS, tokenHash } from './recovery.ts';
import type { JsonObject } from './request.ts';
import { confirmEmail, type Db } from './users.ts';
import type { OutgoingMail } from '../mail/send.ts';

/** Serialises sign-ups and resends of one address, so two racing requests cannot both pass. */
export async function lockAddress(db: Db, email: string): Promise<void> {
  await db.query(`select pg_advisory_xact_lock(hashtext('auth.signup:' || $1))`, [email]);
}

export interface IssuedConfirmation {
  otp: string;
  hash: string;
}

/**
 * Stores a fresh confirmation token for the account (replacing any earlier one) and stamps
 * confirmation_sent_at, as GoTrue's sendConfirmation does before it mails the link.
 */
export async function issueConfirmation(
  db: Db,
  user: { id: string; email: string },
): Promise<IssuedConfirmation> {
  const otp = newOtp();
  const hash = tokenHash(user.email, otp);
  await db.query(
    `update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1`,
    [user.id, hash],
  );
  await db.query(
    `delete from auth.one_time_tokens where user_id = $1 and token_type = 'confirmation_token'`,
    [user.id],
  );
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values ($1, $2, 'confirmation_token', $3, $4)`,
    [randomUUID(), user.id, hash, user.email],
  );
  return { otp, hash };
}

/**
 * Spends a confirmation token given by its hash (the link's `token`, or sha224 of e-mail + code)
 * and confirms the account: GoTrue's signupVerify (`User.Confirm`, and `email_verified` in the
 * e-mail identity). Returns the user id, or null when no unexpired token matches.
 */
export async function consumeConfirmationToken(db: Db, hash: string): Promise<string | null> {
  if (!hash) return null;
  const { rows } = await db.query<{ id: string; email: string | null }>(
    `select id, email from auth.users
     where confirmation_token = $1 and confirmation_sent_at > now() - make_interval(secs => $2)
     for update`,
    [hash, OTP_EXPIRY_SECONDS],
  );
  const user = rows[0];
  if (!user) return null;
  await confirmEmail(db, user.id);
  await db.query(
    `update auth.identities
     set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email' and email = lower($2)`,
    [user.id, user.email ?? ''],
  );
  return user.id;
}

/** The link of a confirmation mail: GET /verify with the token hash, type and redirect. */
export function confirmationLink(externalUrl: string, hash: string, redirectTo: string): string {
  return verifyLink(externalUrl, hash, 'signup', redirectTo);
}

/**
 * Supabase's default "Confirm Your Signup" mail, plus the code for clients that verify with
 * {email, token}.
 */
export function confirmationMail(verifyUrl: string, otp: string) {
  const html = [
    '<h2>Confirm your signup</h2>',
    '<p>Follow this link to confirm your user:</p>',
    `<p><a href="${escapeHtml(verifyUrl)}">Confirm your mail</a></p>`,
    `<p>Alternatively, enter the code: ${otp}</p>`,
  ].join('\n');
  const text = `Confirm your signup\n\nFollow this link to confirm your user:\n${verifyUrl}\n\nAlternatively, enter the code: ${otp}\n`;
  return { subject: 'Confirm Your Signup', html, text };
}

/**
 * Issues a token and mails it. A mail that cannot be sent fails the request with GoTrue's 500
 * "Error sending confirmation email", and the caller's transaction rolls back (no account is left
 * waiting for a mail that never went out).
 */
export async function sendConfirmation(
  db: Db,
  options: {
    user: { id: string; email: string };
    externalUrl: string;
    redirectTo: string;
    mail: (message: OutgoingMail) => Promise<void>;
    log: (message: string) => void;
    /** config.toml's `[auth.email.template.confirmation]`, if any, and `[auth] site_url`. */
    templates?: AuthMailTemplates;
    siteUrl?: string;
  },
): Promise<void> {
  const { user } = options;
  const issued = await issueConfirmation(db, user);
  const link = confirmationLink(options.externalUrl, issued.hash, options.redirectTo);
  const composed = composeAuthMail(
    options.templates,
    'confirmation',
    {
      SiteURL: options.siteUrl ?? '',
      ConfirmationURL: link,
      Email: user.email,
      Token: issued.otp,
      TokenHash: issued.hash,
      RedirectTo: options.redirectTo,
    },
    confirmationMail(link, issued.otp),
  );
  try {
    await options.mail({ to: user.email, ...composed });
  } catch (err) {
    options.log(`confirmation mail to ${user.email} failed: ${(err as Error).message}`);
    throw new AuthError(500, 'unexpected_failure', 'Error sending confirmation email');
  }
}

/**
 * GoTrue's answer (sanitizeUser) to a sign-up of an address whose account is already confirmed,
 * while it does not auto-confirm: 200 with a made-up user (fresh id, nothing confirmed, the data
 * just sent as user_metadata), so nothing of the real account is disclosed. Its empty
 * `identities` is how Supabase documents telling this answer from a new account's.
 */
export function obfuscatedUser(email: string, data: JsonObject, now = new Date()): JsonObject {
  const at = now.toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: at,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: at,
    updated_at: at,
    is_anonymous: false,
  };
}
