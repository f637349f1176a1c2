// GET /verify (the link in a sign-up confirmation, recovery or e-mail change mail) and POST /verify
// (token_hash, or e-mail + code), for the types `signup`, `email` (a sign-up confirmation or a
// recovery token, as GoTrue's email OTP type), `recovery` and `email_change`. GET answers with a
// 303 to redirect_to carrying the session in the fragment (implicit flow). Every request spends
// the client's token_verifications budget first, so codes cannot be guessed at speed.
import type { AuthDeps } from '../deps.ts';
import { startSession, withTransaction } from '../deps.ts';
import { confirmEmailChange, SINGLE_CONFIRMATION_ACCEPTED } from '../email-change.ts';
import {
  forbidden,
  notImplemented,
  sendAuthJson,
  unprocessable,
  validationFailed,
} from '../errors.ts';
import { resolveRedirect } from '../redirect.ts';
import { consumeRecoveryToken, tokenHash } from '../recovery.ts';
import { readJsonObject, stringField } from '../request.ts';
import type { AuthMethod } from '../sessions.ts';
import { consumeConfirmationToken } from '../signup-confirmation.ts';
import type { SessionResponse } from '../tokens.ts';
import type { Db } from '../users.ts';
import { validateEmail } from '../validate.ts';
import type { AuthHandler } from './types.ts';

const TYPES = ['signup', 'email', 'recovery', 'email_change'];
/** GoTrue's other verification types: their tokens come from features the stack does not serve. */
const UNSERVED_TYPES = ['sms', 'phone_change', 'invite', 'magiclink'];

function refuseUnserved(type: string, method: string) {
  if (UNSERVED_TYPES.includes(type))
    throw notImplemented(`Verifying "${type}" tokens (${method} /auth/v1/verify)`);
}

const otpExpired = () => forbidden('otp_expired', 'Token has expired or is invalid');
const emailTaken = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

type Verified =
  /** `type` is what was verified: `email` resolves to `signup` or `magiclink`, as in GoTrue. */
  | { kind: 'session'; session: SessionResponse; type: string }
  | { kind: 'halfway' }
  | { kind: 'taken' }
  | { kind: 'invalid' };

/** Spends a sign-up confirmation or recovery token, whichever `type` names (`email`: either). */
async function consumeEmailToken(
  db: Db,
  type: string,
  hash: string,
): Promise<{ userId: string; type: string } | null> {
  if (type === 'signup' || type === 'email') {
    const userId = await consumeConfirmationToken(db, hash);
    if (userId) return { userId, type: 'signup' };
    if (type === 'signup') return null;
  }
  const userId = await consumeRecoveryToken(db, hash);
  if (!userId) return null;
  return { userId, type: type === 'email' ? 'magiclink' : type };
}

/** Consumes the token of `type` and starts a session, in one transaction. */
function verifyToken(deps: AuthDeps, type: string, hash: string): Promise<Verified> {
  const auth = deps.ctx.settings.project.auth;
  return withTransaction(deps.pool, async (client): Promise<Verified> => {
    let userId: string;
    let verifiedType = type;
    if (type === 'email_change') {
      // Both confirmations are required only with confirmations on (GoTrue skips the second
      // while it auto-confirms, as the CLI does with enable_confirmations = false).
      const bothRequired = auth.doubleConfirmChanges && auth.enableConfirmations;
      const outcome = await confirmEmailChange(client, hash, bothRequired);
      if (outcome.kind !== 'changed') return outcome;
      userId = outcome.userId;
    } else {
      const consumed = await consumeEmailToken(client, type, hash);
      if (!consumed) return { kind: 'invalid' };
      ({ userId, type: verifiedType } = consumed);
    }
    // Recovery links sign in with `recovery`, as the access token's amr shows; the others `otp`.
    const method: AuthMethod = verifiedType === 'recovery' ? 'recovery' : 'otp';
    return {
      kind: 'session',
      session: await startSession(deps, client, userId, method),
      type: verifiedType,
    };
  });
}

function redirect(
  res: Parameters<AuthHandler>[1]['res'],
  target: string,
  fragment: URLSearchParams,
) {
  const url = new URL(target);
  url.hash = fragment.toString();
  sendAuthJson(res, 303, undefined, { Location: url.href });
}

export const verifyGet: AuthHandler = async (deps, { req, res, url }) => {
  deps.limits.spend('tokenVerifications', req);
  const redirectTo = resolveRedirect(
    url.searchParams.get('redirect_to'),
    deps.ctx.settings.project.auth,
  );
  const type = url.searchParams.get('type') ?? '';
  refuseUnserved(type, 'GET');
  const token = url.searchParams.get('token') ?? '';
  const fail = (errorCode: string, description: string, error = 'access_denied') =>
    redirect(
      res,
      redirectTo,
      new URLSearchParams({ error, error_code: errorCode, error_description: description }),
    );

  if (!TYPES.includes(type))
    return fail('validation_failed', 'Unsupported verification type', 'invalid_request');
  if (!token)
    return fail('validation_failed', 'Verify requires a token or a token hash', 'invalid_request');
  const verified = await verifyToken(deps, type, token);
  if (verified.kind === 'invalid')
    return fail('otp_expired', 'Email link is invalid or has expired');
  if (verified.kind === 'taken')
    return fail('email_exists', 'A user with this email address has already been registered');
  if (verified.kind === 'halfway')
    return redirect(
      res,
      redirectTo,
      new URLSearchParams({ message: SINGLE_CONFIRMATION_ACCEPTED }),
    );
  const { session } = verified;
  // URLSearchParams keeps insertion order; this is the alphabetical order GoTrue's url.Values emits.
  redirect(
    res,
    redirectTo,
    new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type: verified.type,
    }),
  );
};

export const verifyPost: AuthHandler = async (deps, { req, res }) => {
  deps.limits.spend('tokenVerifications', req);
  const body = await readJsonObject(req);
  const type = stringField(body, 'type');
  const hashParam = stringField(body, 'token_hash');
  const otp = stringField(body, 'token');
  const rawEmail = stringField(body, 'email');
  if (!type) throw validationFailed('Verify requires a verification type');
  refuseUnserved(type, 'POST');
  if (!TYPES.includes(type)) throw validationFailed(`Unsupported verification type "${type}"`);
  let hash = hashParam;
  if (!hash) {
    if (!otp) throw validationFailed('Verify requires a token or a token hash');
    if (!rawEmail)
      throw validationFailed('Only an email address or phone number should be provided on verify');
    hash = tokenHash(validateEmail(rawEmail), otp);
  }
  const verified = await verifyToken(deps, type, hash);
  if (verified.kind === 'invalid') throw otpExpired();
  if (verified.kind === 'taken') throw emailTaken();
  if (verified.kind === 'halfway')
    return sendAuthJson(res, 200, { msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' });
  sendAuthJson(res, 200, verified.session);
};
