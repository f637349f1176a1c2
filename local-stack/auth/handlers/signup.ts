// POST /signup: e-mail + password sign-up. With confirmations on (`enable_confirmations = true`)
// the account waits unconfirmed for the link of a "Confirm Your Signup" mail and the answer is the
// user without a session; auto-confirmed sign-ups (confirmations off) get a session straight away.
// Both as GoTrue's Signup does, repeated sign-ups of an address included.
import {
  AuthError,
  notImplemented,
  sendAuthJson,
  unprocessable,
  validationFailed,
} from '../errors.ts';
import { startSession, withTransaction } from '../deps.ts';
import { resolveRedirect } from '../redirect.ts';
import { objectField, readJsonObject, stringField } from '../request.ts';
import { lockAddress, obfuscatedUser, sendConfirmation } from '../signup-confirmation.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';
import { findUserByEmail, insertUser, loadUserJson, touchLastSignIn } from '../users.ts';
import type { AuthHandler } from './types.ts';

export const signup: AuthHandler = async (deps, { req, res, url }) => {
  const auth = deps.ctx.settings.project.auth;
  const body = await readJsonObject(req);
  const rawEmail = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  // Neither address nor phone is an anonymous sign-in, which config.toml leaves off (the stack
  // refuses to start with `enable_anonymous_sign_ins = true`); GoTrue checks it first.
  if (!rawEmail && !phone)
    throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  if (!auth.enableSignup)
    throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  const password = stringField(body, 'password');
  const data = objectField(body, 'data') ?? {};

  // GoTrue spends the sign-up budget before validating anything else, failures included.
  deps.limits.spend('signInSignUps', req);
  if (!password) throw validationFailed('Signup requires a valid password');
  checkPasswordStrength(password, auth.minimumPasswordLength);
  if (rawEmail && phone)
    throw validationFailed('Only an email address or phone number should be provided on signup.');
  if (phone) throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled');
  if (!rawEmail) throw validationFailed('To signup, please provide your email');
  const email = validateEmail(rawEmail);
  const autoconfirm = !auth.enableConfirmations;
  // PKCE would make the mailed link answer with a code for `grant_type=pkce`, which is not served.
  if (!autoconfirm && stringField(body, 'code_challenge'))
    throw notImplemented('A PKCE sign-up confirmation (code_challenge on POST /auth/v1/signup)');
  const redirectTo = resolveRedirect(url.searchParams.get('redirect_to'), auth);
  // max_frequency between two confirmation mails to one address, checked whatever the address's
  // state (GoTrue checks the account's confirmation_sent_at; see local-stack/README.md).
  if (!autoconfirm) deps.limits.mailRequested('confirmation', email);

  const result = await withTransaction(deps.pool, async (client) => {
    await lockAddress(client, email);
    const existing = await findUserByEmail(client, email);
    if (existing?.email_confirmed_at || (existing && autoconfirm)) {
      if (autoconfirm) throw unprocessable('user_already_exists', 'User already registered');
      // Confirmed already: nothing is sent and nothing of the account is disclosed.
      return { kind: 'user' as const, user: obfuscatedUser(email, data) };
    }
    // An unconfirmed account keeps its password and metadata (whoever signs up again may not own
    // the address); it only gets a fresh link, as GoTrue does.
    const userId =
      existing?.id ??
      (await insertUser(client, { email, password, userMetadata: data, confirmed: autoconfirm }))
        .id;
    if (autoconfirm) {
      await touchLastSignIn(client, userId);
      return {
        kind: 'session' as const,
        session: await startSession(deps, client, userId, 'password'),
      };
    }
    await sendConfirmation(client, {
      user: { id: userId, email: existing?.email ?? email },
      externalUrl: deps.externalUrl,
      redirectTo,
      mail: deps.mail,
      log: (message) => deps.ctx.log('auth', message),
      templates: auth.mailTemplates,
      siteUrl: auth.siteUrl,
    });
    return { kind: 'user' as const, user: await loadUserJson(client, userId) };
  });
  sendAuthJson(res, 200, result.kind === 'session' ? result.session : result.user);
};
