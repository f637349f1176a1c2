// Password recovery: one-time tokens in auth.users.recovery_token / auth.one_time_tokens (stored as
// GoTrue stores them: sha224 of e-mail + OTP) and the recovery e-mail with its verify link.
import { createHash, randomInt, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { confirmEmail, type Db } from './users.ts';

/** GoTrue's default `mailer_otp_exp` (auth.email.otp_expiry): one hour. */
export const OTP_EXPIRY_SECONDS = 3600;
const OTP_LENGTH = 6;

export function tokenHash(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}

/** A six-digit one-time code, as GoTrue's default `otp_length`. */
export function newOtp(): string {
  return String(randomInt(10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

export interface IssuedRecovery {
  userId: string;
  otp: string;
  hash: string;
}

/**
 * Looks the address up and stores a fresh recovery token for its account, replacing any earlier
 * one. The same statements run whether or not an account has the address (for an unknown one
 * they match no row), so how long /recover takes does not tell the two apart. Returns the token
 * for a known address, null otherwise.
 */
export async function issueRecovery(
  pool: Pick<pg.Pool, 'connect'>,
  email: string,
): Promise<IssuedRecovery | null> {
  const otp = newOtp();
  const hash = tokenHash(email, otp);
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ id: string }>(
      `select id from auth.users where lower(email) = lower($1) and is_sso_user = false
       order by created_at limit 1`,
      [email],
    );
    // An id no account has stands in for an unknown address: the statements below then match
    // nothing, but cost what they cost for a known one.
    const userId = rows[0]?.id ?? randomUUID();
    await client.query(
      `update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now()
       where id = $1`,
      [userId, hash],
    );
    await client.query(
      `delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'`,
      [userId],
    );
    await client.query(
      `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
       select $1, id, 'recovery_token', $3, $4 from auth.users where id = $2`,
      [randomUUID(), userId, hash, email],
    );
    await client.query('commit');
    return rows[0] ? { userId, otp, hash } : null;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Consumes a recovery token given by its hash (from the link) and returns the user id, or null if
 * no unexpired token matches. Single use: the token is cleared in the same statement. Reading the
 * mail proves the address, so an unconfirmed account is confirmed too (GoTrue's recoverVerify).
 */
export async function consumeRecoveryToken(db: Db, hash: string): Promise<string | null> {
  if (!hash) return null;
  const { rows } = await db.query<{ id: string; unconfirmed: boolean }>(
    `update auth.users u set recovery_token = '', updated_at = now()
     from (select id, email_confirmed_at is null as unconfirmed from auth.users
           where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2)
           for update) before
     where u.id = before.id
     returning u.id, before.unconfirmed`,
    [hash, OTP_EXPIRY_SECONDS],
  );
  const row = rows[0];
  if (!row) return null;
  await db.query(
    `delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'`,
    [row.id],
  );
  if (row.unconfirmed) await confirmEmail(db, row.id);
  return row.id;
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

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
