// The special fields of a form post (limits.ts re-exports them for the functions; the site's
// home snippet and embed code read them from here).

/** Special fields understood by the endpoint (Formspree/FormSubmit compatible). */
export const SPECIAL_FIELDS = {
  next: '_next',
  subject: '_subject',
  replyTo: '_replyto',
  honeypots: ['_gotcha', '_honey'],
  /** The hidden field of the dashboard's embed snippet; accepted and ignored. */
  ignored: ['userId'],
  /** CAPTCHA tokens (Turnstile, hCaptcha, reCAPTCHA): checked when the form has CAPTCHA, never stored. */
  captcha: ['cf-turnstile-response', 'h-captcha-response', 'g-recaptcha-response'],
  /** The post's idempotency key (the embed code fills it once per page load); never stored. */
  idempotency: '_idempotency',
  /**
   * The entry whose files the JavaScript embed uploaded through signed upload URLs (the uploads
   * route hands it out); never stored as a field.
   */
  uploadsEntry: '_uploads_entry',
} as const;
