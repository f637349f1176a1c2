// The CAPTCHA providers a form can use and their widgets, as the site needs them: the form settings
// (names, where the owner gets the keys) and the embed code (the widget's script and element) read
// this one definition. The endpoints' side is supabase/functions/forms/captcha.ts (the token
// fields of a post) and supabase/functions/_shared/captcha.ts (the siteverify call, for the forms
// and booking functions); the provider names are the database's (lib/database.ts).
import type { CaptchaProvider } from '../lib/database';

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
