// The check that signing up as an address does not make it a verified target: a fresh sign-up
// (supabase-js `auth.signUp`, an address at example.test like every test user) must get neither a
// session nor a confirmed e-mail until the link mailed to the address is followed. An account's own
// confirmed e-mail counts as a verified target for form notifications and autoresponders
// (`public.is_target_verified`), so a deployment that confirms sign-ups at once lets anyone sign up
// as someone else's address and have tinyback mail it. Run by tests/rls/sign-up-confirmation.test.ts
// (`npm test` and `npm run verify`) and shown failing against Auth with confirmations off
// (tests/conformance/auth-confirmation.test.ts).
import { randomUUID } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';

/** What to change, for every way of running Supabase. */
const TURN_CONFIRMATIONS_ON =
  'Turn e-mail confirmations on: `[auth.email] enable_confirmations = true` in supabase/config.toml ' +
  '(hosted Supabase: Authentication → Sign In / Providers → Email → "Confirm email"), or ' +
  'GOTRUE_MAILER_AUTOCONFIRM=false in the auth service’s environment on self-hosted Supabase.';

/**
 * Answers that show Auth tried to mail a confirmation (so confirmations are on) but could not:
 * the address is refused by the mail setup (hosted Supabase's own SMTP mails only the team's
 * addresses; example.test has no mail server), the send limit is spent, or the mail failed.
 */
const MAIL_REFUSED = new Set([
  'email_address_not_authorized',
  'email_address_invalid',
  'over_email_send_rate_limit',
]);

export interface SignUpTarget {
  apiUrl: string;
  anonKey: string;
  /** The `postgres` role's connection string: reads whether the address became a verified target. */
  dbUrl: string;
}

export class SignUpConfirmationError extends Error {
  constructor(detail: string) {
    super(
      `${detail}: anyone can sign up as someone else's e-mail address and make it a verified ` +
        `target for form notifications and autoresponders without reading its mailbox. ` +
        TURN_CONFIRMATIONS_ON,
    );
    this.name = 'SignUpConfirmationError';
  }
}

/**
 * Signs up a fresh example.test address on `target` and throws a SignUpConfirmationError when the
 * sign-up gets a session, a confirmed e-mail or a verified target at once. Returns what it saw.
 */
export async function checkSignUpNeedsConfirmation(
  target: SignUpTarget,
  email = `sign-up-check-${randomUUID().slice(0, 8)}@example.test`,
): Promise<{ email: string; outcome: 'unconfirmed' | 'mail refused' | 'sign-ups disabled' }> {
  const client = createClient(target.apiUrl, target.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; supabase-js builds its realtime client eagerly.
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
  const { data, error } = await client.auth.signUp({
    email,
    password: `check-${randomUUID()}`,
  });
  if (error) {
    // Nobody can sign up at all: no address can be taken this way.
    if (error.code === 'signup_disabled') return { email, outcome: 'sign-ups disabled' };
    if (
      MAIL_REFUSED.has(error.code ?? '') ||
      /error sending confirmation (e-?mail|mail)/i.test(error.message)
    ) {
      return { email, outcome: 'mail refused' };
    }
    throw new Error(
      `signing up ${email} to check e-mail confirmations failed: ${error.status ?? ''} ${error.code ?? ''} ${error.message}`,
    );
  }
  if (data.session) {
    throw new SignUpConfirmationError(
      `A fresh sign-up (${email}) got a session at once, without confirming its e-mail`,
    );
  }
  if (data.user?.email_confirmed_at || data.user?.confirmed_at) {
    throw new SignUpConfirmationError(
      `A fresh sign-up (${email}) had its e-mail confirmed at once`,
    );
  }
  // What the database makes of it, whatever Auth answered.
  const db = new pg.Client({ connectionString: target.dbUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ confirmed: boolean; verified: boolean }>(
      `select email_confirmed_at is not null as confirmed,
              public.is_target_verified(id, email) as verified
         from auth.users where lower(email) = lower($1)`,
      [email],
    );
    if (rows.some((row) => row.confirmed || row.verified)) {
      throw new SignUpConfirmationError(
        `A fresh sign-up (${email}) made its address a verified target at once`,
      );
    }
  } finally {
    await db.end();
  }
  return { email, outcome: 'unconfirmed' };
}
