// Password recovery: one-time tokens in auth.users.recovery_token / auth.one_time_tokens (stored as
// GoTrue stores them: sha224 of e-mail + OTP) and the recovery e-mail with its verify link.
import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { Db } from './users.ts';

/** GoTrue's default `mailer_otp_exp` (auth.email.otp_expiry): one hour. */
export const OTP_EXPIRY_SECONDS = 3600;
const OTP_LENGTH = 6;

export function tokenHash(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}

export interface RecoveryToken {
  otp: string;
  hash: string;
}

/** Replaces any earlier recovery token of the user with a new one. */
export async function createRecoveryToken(
  db: Db,
  userId: string,
  email: string,
): Promise<RecoveryToken> {
  const otp = String(randomInt(10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
  const hash = tokenHash(email, otp);
  await db.query(
    `update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1`,
    [userId, hash],
  );
  await db.query(
    `delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'`,
    [userId],
  );
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values ($1, $2, 'recovery_token', $3, $4)`,
    [randomUUID(), userId, hash, email],
  );
  return { otp, hash };
}

/**
 * Consumes a recovery token given by its hash (from the link) and returns the user id, or null if
 * no unexpired token matches. Single use: the token is cleared in the same statement.
 */
export async function consumeRecoveryToken(db: Db, hash: string): Promise<string | null> {
  if (!hash) return null;
  const { rows } = await db.query<{ id: string }>(
    `update auth.users set recovery_token = '', updated_at = now(),
       email_confirmed_at = coalesce(email_confirmed_at, now())
     where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2)
     returning id`,
    [hash, OTP_EXPIRY_SECONDS],
  );
  const userId = rows[0]?.id ?? null;
  if (userId) {
    await db.query(
      `delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'`,
      [userId],
    );
  }
  return userId;
}

export function recoveryMail(verifyUrl: string, otp: string) {
  // GoTrue's default recovery template, plus the code for clients that verify with {email, token}.
  const html = [
    '<h2>Reset Password</h2>',
    '<p>Follow this link to reset the password for your user:</p>',
    `<p><a href="${escapeHtml(verifyUrl)}">Reset Password</a></p>`,
    `<p>Alternatively, enter the code: ${otp}</p>`,
  ].join('\n');
  const text = `Reset Password\n\nFollow this link to reset the password for your user:\n${verifyUrl}\n\nAlternatively, enter the code: ${otp}\n`;
  return { subject: 'Reset Your Password', html, text };
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
