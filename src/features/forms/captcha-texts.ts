// The CAPTCHA providers a form can use, as the dashboard and the embed code need them: names, where
// the owner gets the keys, the widget's script and element, and the database's refusals in words.
// The endpoint's side (token fields, siteverify) is supabase/functions/forms/captcha.ts.

import type { CaptchaProvider } from '../../lib/database';

export type { CaptchaProvider };
export const CAPTCHA_PROVIDERS = [
  'turnstile',
  'hcaptcha',
  'recaptcha',
] as const satisfies readonly CaptchaProvider[];

export interface CaptchaWidget {
  label: string;
  /** Where the owner creates a site key and secret key. */
  keysUrl: string;
  /** The provider's script, loaded by the visitor's browser. */
  script: string;
  /** The element the script turns into the widget (it adds the token field inside the form). */
  className: string;
  /** The browser global whose reset() gives a fresh token after each send (tokens are single-use). */
  global: string;
}

export const CAPTCHA_WIDGETS: Record<CaptchaProvider, CaptchaWidget> = {
  turnstile: {
    label: 'Cloudflare Turnstile',
    keysUrl: 'https://dash.cloudflare.com/?to=/:account/turnstile',
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    className: 'cf-turnstile',
    global: 'turnstile',
  },
  hcaptcha: {
    label: 'hCaptcha',
    keysUrl: 'https://dashboard.hcaptcha.com/sites',
    script: 'https://js.hcaptcha.com/1/api.js',
    className: 'h-captcha',
    global: 'hcaptcha',
  },
  recaptcha: {
    label: 'Google reCAPTCHA v2 (checkbox)',
    keysUrl: 'https://www.google.com/recaptcha/admin/create',
    script: 'https://www.google.com/recaptcha/api.js',
    className: 'g-recaptcha',
    global: 'grecaptcha',
  },
};

/** As the database checks them (20261124180000_captcha.sql). */
export const SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
export const SECRET_PATTERN = /^[!-~]{1,500}$/;

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
