// POST /recover: e-mails a password-recovery link through the local mail catcher. Always answers
// 200 {} so the endpoint does not reveal which addresses have accounts.
import { sendMail } from '../../mail/send.ts';
import { AuthError, sendAuthJson, validationFailed } from '../errors.ts';
import { withTransaction } from '../deps.ts';
import { resolveRedirect } from '../redirect.ts';
import { createRecoveryToken, recoveryMail } from '../recovery.ts';
import { readJsonObject, stringField } from '../request.ts';
import { findUserByEmail } from '../users.ts';
import { validateEmail } from '../validate.ts';
import type { AuthHandler } from './types.ts';

export const recover: AuthHandler = async (deps, { req, res, url }) => {
  const body = await readJsonObject(req);
  const rawEmail = stringField(body, 'email');
  if (!rawEmail.trim()) throw validationFailed('Password recovery requires an email');
  const email = validateEmail(rawEmail);
  const settings = deps.ctx.settings;
  const user = await findUserByEmail(deps.pool, email);
  if (user) {
    const redirectTo = resolveRedirect(url.searchParams.get('redirect_to'), settings.project.auth);
    const token = await withTransaction(deps.pool, (client) =>
      createRecoveryToken(client, user.id, email),
    );
    const link = new URL(`${deps.externalUrl}/verify`);
    link.searchParams.set('token', token.hash);
    link.searchParams.set('type', 'recovery');
    link.searchParams.set('redirect_to', redirectTo);
    try {
      await sendMail(
        { host: settings.host, port: settings.ports.smtp },
        { to: email, ...recoveryMail(link.href, token.otp) },
      );
    } catch (err) {
      deps.ctx.log('auth', `recovery mail to ${email} failed: ${(err as Error).message}`);
      throw new AuthError(500, 'unexpected_failure', 'Error sending recovery email');
    }
  }
  sendAuthJson(res, 200, {});
};
