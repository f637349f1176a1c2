// POST /recover: e-mails a password-recovery link through the local mail catcher. Always answers
// 200 {} so the endpoint does not reveal which addresses have accounts — nor does its timing: an
// unknown address runs the same statements as a known one, and the mail goes out after the answer.
import { sendAuthJson, validationFailed } from '../errors.ts';
import { resolveRedirect } from '../redirect.ts';
import { issueRecovery, recoveryMail } from '../recovery.ts';
import { readJsonObject, stringField } from '../request.ts';
import { validateEmail } from '../validate.ts';
import type { AuthHandler } from './types.ts';

export const recover: AuthHandler = async (deps, { req, res, url }) => {
  deps.limits.spend('signInSignUps', req);
  const body = await readJsonObject(req);
  const rawEmail = stringField(body, 'email');
  if (!rawEmail.trim()) throw validationFailed('Password recovery requires an email');
  const email = validateEmail(rawEmail);
  const redirectTo = resolveRedirect(
    url.searchParams.get('redirect_to'),
    deps.ctx.settings.project.auth,
  );
  deps.limits.mailRequested('recovery', email);
  const issued = await issueRecovery(deps.pool, email);
  sendAuthJson(res, 200, {});
  if (!issued) return;
  const link = new URL(`${deps.externalUrl}/verify`);
  link.searchParams.set('token', issued.hash);
  link.searchParams.set('type', 'recovery');
  link.searchParams.set('redirect_to', redirectTo);
  // GoTrue answers 500 when the mail fails; here the answer has gone, so the failure is logged.
  await deps
    .mail({ to: email, ...recoveryMail(link.href, issued.otp) })
    .catch((err: Error) =>
      deps.ctx.log('auth', `recovery mail to ${email} failed: ${err.message}`),
    );
};
