// POST /resend: sends the sign-up confirmation mail again (type `signup`), as GoTrue's Resend does:
// 200 {} whether or not an unconfirmed account has the address (unknown and confirmed addresses
// are sent nothing). The other types GoTrue resends (email_change, sms, phone_change) are not
// served here and say so.
import { withTransaction } from '../deps.ts';
import { notImplemented, sendAuthJson, validationFailed } from '../errors.ts';
import { resolveRedirect } from '../redirect.ts';
import { readJsonObject, stringField } from '../request.ts';
import { lockAddress, sendConfirmation } from '../signup-confirmation.ts';
import { findUserByEmail } from '../users.ts';
import { validateEmail } from '../validate.ts';
import type { AuthHandler } from './types.ts';

const GOTRUE_TYPES = ['signup', 'email_change', 'sms', 'phone_change'];

export const resend: AuthHandler = async (deps, { req, res, url }) => {
  // GoTrue's /resend shares the `sign_in_sign_ups` budget (GOTRUE_RATE_LIMIT_OTP).
  deps.limits.spend('signInSignUps', req);
  const body = await readJsonObject(req);
  const type = stringField(body, 'type');
  const rawEmail = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  if (!GOTRUE_TYPES.includes(type))
    throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change');
  if (type !== 'signup') throw notImplemented(`Resending "${type}" (POST /auth/v1/resend)`);
  if (!rawEmail) throw validationFailed('Type provided requires an email address');
  if (phone) throw validationFailed('Only an email address or phone number should be provided.');
  const email = validateEmail(rawEmail);
  if (stringField(body, 'code_challenge'))
    throw notImplemented('A PKCE sign-up confirmation (code_challenge on POST /auth/v1/resend)');
  const auth = deps.ctx.settings.project.auth;
  const redirectTo = resolveRedirect(url.searchParams.get('redirect_to'), auth);
  // Checked for every address, known or not, so a 429 does not tell which ones have accounts.
  deps.limits.mailRequested('confirmation', email);

  await withTransaction(deps.pool, async (client) => {
    await lockAddress(client, email);
    const user = await findUserByEmail(client, email);
    if (!user || user.email_confirmed_at) return;
    await sendConfirmation(client, {
      user: { id: user.id, email: user.email ?? email },
      externalUrl: deps.externalUrl,
      redirectTo,
      mail: deps.mail,
      log: (message) => deps.ctx.log('auth', message),
      templates: auth.mailTemplates,
      siteUrl: auth.siteUrl,
    });
  });
  sendAuthJson(res, 200, {});
};
