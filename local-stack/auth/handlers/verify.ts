// GET /verify (the link in a recovery or e-mail change mail) and POST /verify (token_hash, or
// e-mail + code), for the types `recovery` and `email_change`. GET answers with a 303 to
// redirect_to carrying the session in the fragment (implicit flow). Every request spends the
// client's token_verifications budget first, so codes cannot be guessed at speed.
import type { AuthDeps } from '../deps.ts';
import { startSession, withTransaction } from '../deps.ts';
import { confirmEmailChange, SINGLE_CONFIRMATION_ACCEPTED } from '../email-change.ts';
import { forbidden, sendAuthJson, unprocessable, validationFailed } from '../errors.ts';
import { resolveRedirect } from '../redirect.ts';
import { consumeRecoveryToken, tokenHash } from '../recovery.ts';
import { readJsonObject, stringField } from '../request.ts';
import type { AuthMethod } from '../sessions.ts';
import type { SessionResponse } from '../tokens.ts';
import { validateEmail } from '../validate.ts';
import type { AuthHandler } from './types.ts';

const TYPES = ['recovery', 'email_change'];

const otpExpired = () => forbidden('otp_expired', 'Token has expired or is invalid');
const emailTaken = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

type Verified =
  | { kind: 'session'; session: SessionResponse }
  | { kind: 'halfway' }
  | { kind: 'taken' }
  | { kind: 'invalid' };

/** Consumes the token of `type` and starts a session, in one transaction. */
function verifyToken(
  deps: AuthDeps,
  type: string,
  hash: string,
  method: AuthMethod,
): Promise<Verified> {
  const auth = deps.ctx.settings.project.auth;
  return withTransaction(deps.pool, async (client): Promise<Verified> => {
    let userId: string | null;
    if (type === 'recovery') {
      userId = await consumeRecoveryToken(client, hash);
    } else {
      // Both confirmations are required only with confirmations on (GoTrue skips the second
      // while it auto-confirms, as the CLI does with enable_confirmations = false).
      const bothRequired = auth.doubleConfirmChanges && auth.enableConfirmations;
      const outcome = await confirmEmailChange(client, hash, bothRequired);
      if (outcome.kind !== 'changed') return outcome;
      userId = outcome.userId;
    }
    if (!userId) return { kind: 'invalid' };
    return { kind: 'session', session: await startSession(deps, client, userId, method) };
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
  // Recovery links sign in with `recovery`, as the access token's amr shows.
  const verified = await verifyToken(deps, type, token, type === 'recovery' ? 'recovery' : 'otp');
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
      type,
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
  if (!TYPES.includes(type)) throw validationFailed(`Unsupported verification type "${type}"`);
  let hash = hashParam;
  if (!hash) {
    if (!otp) throw validationFailed('Verify requires a token or a token hash');
    if (!rawEmail)
      throw validationFailed('Only an email address or phone number should be provided on verify');
    hash = tokenHash(validateEmail(rawEmail), otp);
  }
  const verified = await verifyToken(deps, type, hash, 'otp');
  if (verified.kind === 'invalid') throw otpExpired();
  if (verified.kind === 'taken') throw emailTaken();
  if (verified.kind === 'halfway')
    return sendAuthJson(res, 200, { msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' });
  sendAuthJson(res, 200, verified.session);
};
