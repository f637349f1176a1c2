// POST /token?grant_type=password|refresh_token: password sign-in and refresh-token rotation.
import {
  badRequest,
  notImplemented,
  OAuthError,
  sendAuthJson,
  validationFailed,
} from '../errors.ts';
import { sessionFor, startSession, withTransaction } from '../deps.ts';
import { readJsonObject, stringField } from '../request.ts';
import { rotateRefreshToken } from '../sessions.ts';
import { findUserByEmail, passwordMatches, touchLastSignIn } from '../users.ts';
import type { AuthHandler } from './types.ts';

const invalidCredentials = () => badRequest('invalid_credentials', 'Invalid login credentials');

export const token: AuthHandler = async (deps, request) => {
  const grantType = request.url.searchParams.get('grant_type');
  // GoTrue spends the token_refresh budget on every grant it knows, before reading the body.
  const known = ['password', 'refresh_token', 'pkce', 'id_token', 'web3'];
  if (grantType && known.includes(grantType)) deps.limits.spend('tokenRefresh', request.req);
  if (grantType === 'password') return passwordGrant(deps, request);
  if (grantType === 'refresh_token') return refreshGrant(deps, request);
  // Grants GoTrue has that the stand-in lacks: say so rather than call them unknown.
  if (grantType === 'pkce' || grantType === 'id_token' || grantType === 'web3')
    throw notImplemented(`The ${grantType} grant`);
  throw badRequest('invalid_credentials', 'unsupported_grant_type');
};

const passwordGrant: AuthHandler = async (deps, { req, res }) => {
  const body = await readJsonObject(req);
  const email = stringField(body, 'email').trim();
  const phone = stringField(body, 'phone');
  const password = stringField(body, 'password');
  if (!email && !phone) throw validationFailed('missing email or phone');
  if (!email) throw invalidCredentials(); // no phone provider here
  const user = await findUserByEmail(deps.pool, email);
  if (!user || !password || !(await passwordMatches(user, password))) throw invalidCredentials();
  if (user.banned_until && user.banned_until.getTime() > Date.now())
    throw badRequest('user_banned', 'User is banned');
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const session = await withTransaction(deps.pool, async (client) => {
    await touchLastSignIn(client, user.id);
    return startSession(deps, client, user.id, 'password');
  });
  sendAuthJson(res, 200, session);
};

const refreshGrant: AuthHandler = async (deps, { req, res }) => {
  const body = await readJsonObject(req);
  const presented = stringField(body, 'refresh_token');
  if (!presented) throw new OAuthError(400, 'invalid_request', 'refresh_token required');
  const reuseInterval = deps.ctx.settings.project.auth.refreshTokenReuseInterval;
  const session = await withTransaction(deps.pool, async (client) => {
    const outcome = await rotateRefreshToken(client, presented, reuseInterval);
    if (!outcome.ok) return outcome;
    return {
      ok: true as const,
      session: await sessionFor(
        deps,
        client,
        outcome.userId,
        outcome.sessionId,
        outcome.refreshToken,
      ),
    };
  });
  if (!session.ok) {
    // The family revocation above is committed before the error is reported.
    if (session.reason === 'already_used')
      throw badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    if (session.reason === 'session_not_found')
      throw badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');
    throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  }
  sendAuthJson(res, 200, session.session);
};
