// E-mail change as GoTrue runs it for a signed-in user: `PUT /user {email}` stores the new
// address as pending and mails a link and code to it — and, with `double_confirm_changes`
// (GoTrue's secure e-mail change), to the current address too. Following a link (`GET /verify`,
// type `email_change`) or sending a code (`POST /verify`) applies the change; only with
// confirmations on are both needed, the first answering "Confirmation link accepted…".
import { randomUUID } from 'node:crypto';
import { escapeHtml, newOtp, OTP_EXPIRY_SECONDS, tokenHash } from './recovery.ts';
import { setEmail, type Db, type UserRow } from './users.ts';

/** GoTrue's answer to the first of two required confirmations. */
export const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

export interface EmailChangeMail {
  to: string;
  otp: string;
  hash: string;
}

/**
 * Stores the pending change with fresh tokens (replacing any earlier pending change) and returns
 * the mails to send: the new address always, the current one as well when `secure`.
 */
export async function startEmailChange(
  db: Db,
  user: Pick<UserRow, 'id' | 'email'>,
  newEmail: string,
  secure: boolean,
): Promise<EmailChangeMail[]> {
  const current = user.email ?? '';
  const mails: EmailChangeMail[] = [];
  const otpNew = newOtp();
  mails.push({ to: newEmail, otp: otpNew, hash: tokenHash(newEmail, otpNew) });
  if (secure && current) {
    const otpCurrent = newOtp();
    mails.push({ to: current, otp: otpCurrent, hash: tokenHash(current, otpCurrent) });
  }
  const [toNew, toCurrent] = mails;
  await db.query(
    `update auth.users
     set email_change = $2::text, email_change_token_new = $3, email_change_token_current = $4,
         email_change_confirm_status = 0, email_change_sent_at = now(), updated_at = now()
     where id = $1`,
    [user.id, newEmail, toNew.hash, toCurrent?.hash ?? ''],
  );
  await db.query(
    `delete from auth.one_time_tokens
     where user_id = $1 and token_type in ('email_change_token_new', 'email_change_token_current')`,
    [user.id],
  );
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values ($1, $2, 'email_change_token_new', $3, $4)`,
    [randomUUID(), user.id, toNew.hash, newEmail],
  );
  if (toCurrent) {
    await db.query(
      `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
       values ($1, $2, 'email_change_token_current', $3, $4)`,
      [randomUUID(), user.id, toCurrent.hash, current],
    );
  }
  return mails;
}

export type EmailChangeOutcome =
  | { kind: 'changed'; userId: string }
  /** One of two required confirmations is in; the other link or code is still needed. */
  | { kind: 'halfway' }
  /** Another account took the address meanwhile. */
  | { kind: 'taken' }
  | { kind: 'invalid' };

/**
 * Consumes an e-mail change token given by its hash. With `bothRequired` (secure change while
 * confirmations are on) the first token only marks one side confirmed; otherwise, or for the
 * second token, the change is applied.
 */
export async function confirmEmailChange(
  db: Db,
  hash: string,
  bothRequired: boolean,
): Promise<EmailChangeOutcome> {
  if (!hash) return { kind: 'invalid' };
  const { rows } = await db.query<{
    id: string;
    email: string | null;
    email_change: string | null;
    current_token: string | null;
    new_token: string | null;
    status: number | null;
  }>(
    `select id, email, email_change, email_change_token_current as current_token,
            email_change_token_new as new_token, email_change_confirm_status as status
     from auth.users
     where (email_change_token_current = $1 or email_change_token_new = $1)
       and email_change_sent_at > now() - make_interval(secs => $2)
     for update`,
    [hash, OTP_EXPIRY_SECONDS],
  );
  const user = rows[0];
  if (!user || !user.email_change) return { kind: 'invalid' };
  if (bothRequired && (user.status ?? 0) === 0 && user.email) {
    const side = user.current_token === hash ? 'current' : 'new';
    await db.query(
      `update auth.users set email_change_confirm_status = 1,
         ${side === 'current' ? 'email_change_token_current' : 'email_change_token_new'} = '',
         updated_at = now()
       where id = $1`,
      [user.id],
    );
    await db.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2`, [
      user.id,
      side === 'current' ? 'email_change_token_current' : 'email_change_token_new',
    ]);
    return { kind: 'halfway' };
  }
  const taken = await db.query(
    `select 1 from auth.users where lower(email) = lower($1) and id <> $2 and is_sso_user = false`,
    [user.email_change, user.id],
  );
  if (taken.rows.length) return { kind: 'taken' };
  await setEmail(db, user.id, user.email_change);
  return { kind: 'changed', userId: user.id };
}

/** GoTrue's default "Confirm Email Change" mail, plus the code for clients that verify with it. */
export function emailChangeMail(verifyUrl: string, from: string, to: string, otp: string) {
  const html = [
    '<h2>Confirm Change of Email</h2>',
    `<p>Follow this link to confirm the update of your email from ${escapeHtml(from)} to ${escapeHtml(to)}:</p>`,
    `<p><a href="${escapeHtml(verifyUrl)}">Change Email</a></p>`,
    `<p>Alternatively, enter the code: ${otp}</p>`,
  ].join('\n');
  const text =
    `Confirm Change of Email\n\nFollow this link to confirm the update of your email from ${from} to ${to}:\n` +
    `${verifyUrl}\n\nAlternatively, enter the code: ${otp}\n`;
  return { subject: 'Confirm Email Change', html, text };
}
