// POST /signup: e-mail + password sign-up; auto-confirmed (enable_confirmations = false) sign-ups
// get a session straight away, as with the Supabase CLI's local GoTrue.
import { AuthError, sendAuthJson, unprocessable, validationFailed } from '../errors.ts';
import { startSession, withTransaction } from '../deps.ts';
import { objectField, readJsonObject, stringField } from '../request.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';
import { findUserByEmail, insertUser, loadUserJson, touchLastSignIn } from '../users.ts';
import type { AuthHandler } from './types.ts';

export const signup: AuthHandler = async (deps, { req, res }) => {
  const auth = deps.ctx.settings.project.auth;
  if (!auth.enableSignup)
    throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  const body = await readJsonObject(req);
  const rawEmail = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  const password = stringField(body, 'password');
  const data = objectField(body, 'data') ?? {};

  // GoTrue spends the sign-up budget before validating anything else, failures included (a
  // request with neither address nor phone is an anonymous sign-up, which has its own budget).
  if (rawEmail || phone) deps.limits.spend('signInSignUps', req);
  if (!password) throw validationFailed('Signup requires a valid password');
  checkPasswordStrength(password, auth.minimumPasswordLength);
  if (rawEmail && phone)
    throw validationFailed('Only an email address or phone number should be provided on signup.');
  if (phone) throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled');
  if (!rawEmail) throw validationFailed('To signup, please provide your email');
  const email = validateEmail(rawEmail);
  const autoconfirm = !auth.enableConfirmations;

  const result = await withTransaction(deps.pool, async (client) => {
    // Serialise sign-ups of one address so two racing requests cannot both pass the check.
    await client.query(`select pg_advisory_xact_lock(hashtext('auth.signup:' || $1))`, [email]);
    const existing = await findUserByEmail(client, email);
    if (existing) {
      if (existing.email_confirmed_at || autoconfirm) {
        throw unprocessable('user_already_exists', 'User already registered');
      }
      return { kind: 'user' as const, user: await loadUserJson(client, existing.id) };
    }
    const user = await insertUser(client, {
      email,
      password,
      userMetadata: data,
      confirmed: autoconfirm,
    });
    if (!autoconfirm) return { kind: 'user' as const, user: await loadUserJson(client, user.id) };
    await touchLastSignIn(client, user.id);
    return {
      kind: 'session' as const,
      session: await startSession(deps, client, user.id, 'password'),
    };
  });
  sendAuthJson(res, 200, result.kind === 'session' ? result.session : result.user);
};
