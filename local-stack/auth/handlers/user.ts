// GET /user and PUT /user: read and update the signed-in user (metadata, password, e-mail). A new
// e-mail address waits for confirmation by mail, as GoTrue's (see ../email-change.ts).
import { composeAuthMail, composeNotification, verifyLink } from '../auth-mails.ts';
import { authenticate, withTransaction } from '../deps.ts';
import { emailChangeMail, startEmailChange } from '../email-change.ts';
import {
  AuthError,
  badRequest,
  forbidden,
  notImplemented,
  sendAuthJson,
  unprocessable,
} from '../errors.ts';
import { resolveRedirect } from '../redirect.ts';
import { objectField, readJsonObject, stringField } from '../request.ts';
import { endSessions } from '../sessions.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';
import {
  findUserByEmail,
  listIdentities,
  loadUserJson,
  mergeUserMetadata,
  passwordMatches,
  setEmail,
  setPassword,
  userJson,
} from '../users.ts';
import type { AuthHandler } from './types.ts';

export const getUser: AuthHandler = async (deps, { req, res }) => {
  const { user } = await authenticate(deps, req);
  sendAuthJson(res, 200, userJson(user, await listIdentities(deps.pool, user.id)));
};

export const updateUser: AuthHandler = async (deps, { req, res, url }) => {
  const caller = await authenticate(deps, req);
  // GoTrue's PUT /user shares the sign-in/sign-up budget (after authentication).
  deps.limits.spend('signInSignUps', req);
  const body = await readJsonObject(req);
  const data = objectField(body, 'data');
  const password = body.password === undefined ? undefined : stringField(body, 'password');
  const rawEmail = stringField(body, 'email');
  if (objectField(body, 'app_metadata'))
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  // A phone number needs an SMS provider to confirm it; never dropped without a word.
  if (stringField(body, 'phone') && stringField(body, 'phone') !== (caller.user.phone ?? ''))
    throw notImplemented('Changing the phone number (phone on PUT /auth/v1/user)');
  const auth = deps.ctx.settings.project.auth;
  const user = caller.user;

  if (password !== undefined) {
    checkPasswordStrength(password, auth.minimumPasswordLength);
    // secure_password_change: a session signed in more than 24 hours ago needs a reauthentication
    // nonce (GoTrue's UpdatePasswordRequireReauthentication).
    const session = caller.session;
    if (
      auth.securePasswordChange &&
      (!session || Date.now() > session.created_at.getTime() + REAUTHENTICATION_AFTER_MS)
    ) {
      if (!stringField(body, 'nonce'))
        throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
      throw notImplemented('Reauthentication (a nonce on PUT /auth/v1/user)');
    }
    if (await passwordMatches(user, password)) {
      throw unprocessable(
        'same_password',
        'New password should be different from the old password.',
      );
    }
  }
  const email = rawEmail ? validateEmail(rawEmail) : undefined;
  const changesEmail = !!email && email !== user.email;
  if (changesEmail) {
    const other = await findUserByEmail(deps.pool, email);
    if (other && other.id !== user.id) {
      throw unprocessable(
        'email_exists',
        'A user with this email address has already been registered',
      );
    }
    // max_frequency between two e-mail change mails (GoTrue checks email_change_sent_at).
    deps.limits.mailRequested('email_change', user.id);
  }
  const redirectTo = resolveRedirect(url.searchParams.get('redirect_to'), auth);

  await withTransaction(deps.pool, async (client) => {
    if (data) await mergeUserMetadata(client, user.id, data);
    if (password !== undefined) {
      await setPassword(client, user.id, password);
      // A new password signs the user out everywhere else, as GoTrue does.
      await endSessions(
        client,
        user.id,
        caller.session?.id ?? null,
        caller.session ? 'others' : 'global',
      );
    }
    if (!changesEmail || !email) return;
    // Only anonymous users get a new address at once, and only while GoTrue auto-confirms.
    if (user.is_anonymous && !auth.enableConfirmations) return setEmail(client, user.id, email);
    const mails = await startEmailChange(client, user, email, auth.doubleConfirmChanges);
    try {
      for (const mail of mails) {
        const link = verifyLink(deps.externalUrl, mail.hash, 'email_change', redirectTo);
        await deps.mail({
          to: mail.to,
          ...composeAuthMail(
            auth.mailTemplates,
            'email_change',
            {
              SiteURL: auth.siteUrl,
              ConfirmationURL: link,
              Email: user.email ?? '',
              NewEmail: email,
              Token: mail.otp,
              TokenHash: mail.hash,
              SendingTo: mail.to,
              RedirectTo: redirectTo,
            },
            emailChangeMail(link, user.email ?? '', email, mail.otp),
          ),
        });
      }
    } catch (err) {
      // As GoTrue: no mail, no pending change (the transaction rolls back).
      deps.ctx.log('auth', `e-mail change mail failed: ${(err as Error).message}`);
      throw new AuthError(500, 'unexpected_failure', 'Error sending email change email');
    }
  });
  // `[auth.email.notification.password_changed]`: the account hears of the change. A failure is
  // logged, never answered (as GoTrue).
  const notice =
    password !== undefined && user.email
      ? composeNotification(auth.mailTemplates, 'password_changed', {
          SiteURL: auth.siteUrl,
          Email: user.email,
        })
      : null;
  if (notice && user.email) {
    await deps
      .mail({ to: user.email, ...notice })
      .catch((err: Error) =>
        deps.ctx.log('auth', `password changed notification failed: ${err.message}`),
      );
  }
  sendAuthJson(res, 200, await loadUserJson(deps.pool, user.id));
};

/** How long after signing in a session may change the password without reauthenticating. */
const REAUTHENTICATION_AFTER_MS = 24 * 3600 * 1000;
