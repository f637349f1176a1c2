// GET /verify (the link in the recovery e-mail) and POST /verify (token_hash or e-mail + code).
// GET answers with a 303 to redirect_to carrying the session in the fragment (implicit flow).
import { forbidden, sendAuthJson, validationFailed } from '../errors.ts';
import { startSession, withTransaction } from '../deps.ts';
import { resolveRedirect } from '../redirect.ts';
import { consumeRecoveryToken, tokenHash } from '../recovery.ts';
import { readJsonObject, stringField } from '../request.ts';
import { validateEmail } from '../validate.ts';
import type { AuthHandler } from './types.ts';

const otpExpired = () => forbidden('otp_expired', 'Token has expired or is invalid');

function redirect(
  res: Parameters<AuthHandler>[1]['res'],
  target: string,
  fragment: URLSearchParams,
) {
  const url = new URL(target);
  url.hash = fragment.toString();
  sendAuthJson(res, 303, undefined, { Location: url.href });
}

export const verifyGet: AuthHandler = async (deps, { res, url }) => {
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

  if (type !== 'recovery')
    return fail('validation_failed', 'Unsupported verification type', 'invalid_request');
  if (!token)
    return fail('validation_failed', 'Verify requires a token or a token hash', 'invalid_request');
  const session = await withTransaction(deps.pool, async (client) => {
    const userId = await consumeRecoveryToken(client, token);
    return userId ? startSession(deps, client, userId, 'recovery') : null;
  });
  if (!session) return fail('otp_expired', 'Email link is invalid or has expired');
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
      type: 'recovery',
    }),
  );
};

export const verifyPost: AuthHandler = async (deps, { req, res }) => {
  const body = await readJsonObject(req);
  const type = stringField(body, 'type');
  const hashParam = stringField(body, 'token_hash');
  const otp = stringField(body, 'token');
  const rawEmail = stringField(body, 'email');
  if (!type) throw validationFailed('Verify requires a verification type');
  if (type !== 'recovery') throw validationFailed(`Unsupported verification type "${type}"`);
  let hash = hashParam;
  if (!hash) {
    if (!otp) throw validationFailed('Verify requires a token or a token hash');
    if (!rawEmail)
      throw validationFailed('Only an email address or phone number should be provided on verify');
    hash = tokenHash(validateEmail(rawEmail), otp);
  }
  const session = await withTransaction(deps.pool, async (client) => {
    const userId = await consumeRecoveryToken(client, hash);
    return userId ? startSession(deps, client, userId, 'otp') : null;
  });
  if (!session) throw otpExpired();
  sendAuthJson(res, 200, session);
};
