// A form's CAPTCHA setting in words: its state, the keys' formats as the database checks them, and
// the database's refusals. The providers and their widgets are config/captcha.ts (the embed code
// reads them too); the endpoint's side is supabase/functions/forms/captcha.ts (the token fields)
// and supabase/functions/_shared/captcha.ts (the siteverify call).

import { CAPTCHA_WIDGETS } from '../../config/captcha';
import type { CaptchaProvider } from '../../lib/database';

/** As the database checks them (set_form_captcha()). */
export { SECRET_PATTERN, SITE_KEY_PATTERN } from '../../components/captcha-keys';

/** "Posts need a Turnstile check." / "Off: …" */
export function describeCaptcha(provider: CaptchaProvider | null): string {
  if (!provider) return 'Off: posts are checked by the spam trap and rate limits only.';
  return `On: every post needs a ${CAPTCHA_WIDGETS[provider].label} check. Secret key set.`;
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
}

/** A failed save of a form's CAPTCHA, in words for the owner. */
export function describeCaptchaError(error: unknown): string {
  const { code, message } = (error ?? {}) as ErrorLike;
  // The database's own sentences ("Enter the secret key.").
  if (code === '22023' && typeof message === 'string') return message;
  // Not found: PT404 (404) from set_form_captcha(); P0002 from databases before it.
  if (code === 'PT404' || code === 'P0002')
    return 'This form no longer exists. Close the dialog and open it again.';
  if (code === '42501') return 'You are not allowed to change this form’s CAPTCHA.';
  return 'Could not save the CAPTCHA. Check your connection and try again.';
}
