// POST /recover: e-mails a password-recovery link through the local mail catcher. Always answers
// 200 {} so the endpoint does not reveal which addresses have accounts — nor does its timing: an
// unknown address runs the same statements as a known one, and the mail goes out after the answer.
import { composeAuthMail, verifyLink } from '../auth-mails.ts';
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
  const auth = deps.ctx.settings.project.auth;
  const redirectTo = resolveRedirect(url.searchParams.get('redirect_to'), auth);
  deps.limits.mailRequested('recovery', email);
  const issued = await issueRecovery(deps.pool, email);
  sendAuthJson(res, 200, {});
  if (!issued) return;
  const link = verifyLink(deps.externalUrl, issued.hash, 'recovery', redirectTo);
  const composed = composeAuthMail(
    auth.mailTemplates,
    'recovery',
    {
      SiteURL: auth.siteUrl,
      ConfirmationURL: link,
      Email: email,
      Token: issued.otp,
      TokenHash: issued.hash,
      RedirectTo: redirectTo,
    },
    recoveryMail(link, issued.otp),
  );
  // GoTrue answers 500 when the mail fails; here the answer has gone, so the failure is logged.
  await deps
    .mail({ to: email, ...composed })
    .catch((err: Error) =>
      deps.ctx.log('auth', `recovery mail to ${email} failed: ${err.message}`),
    );
};
