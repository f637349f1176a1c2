// A form's CAPTCHA check: the visitor's token, read from the provider's response field, is verified
// with the provider's siteverify API (_shared/captcha.ts) before the endpoint accepts a post. In
// every refusal nothing is stored.
import {
  checkWithStoredSecret,
  type CaptchaProvider,
  type CaptchaVerdict,
} from '../_shared/captcha.ts';
import { SPECIAL_FIELDS } from '../_shared/limits.ts';
import { ERRORS, type EndpointError } from './errors.ts';

/** The field each provider's widget posts its token in. */
const TOKEN_FIELDS: Record<CaptchaProvider, string> = {
  turnstile: SPECIAL_FIELDS.captcha[0],
  hcaptcha: SPECIAL_FIELDS.captcha[1],
  recaptcha: SPECIAL_FIELDS.captcha[2],
};

/** The provider's token among the posted fields (the first non-empty one), or null. */
export function captchaToken(
  provider: CaptchaProvider,
  fields: readonly (readonly [string, string])[],
): string | null {
  const name = TOKEN_FIELDS[provider];
  for (const [field, value] of fields) if (field === name && value.trim()) return value.trim();
  return null;
}

/** The endpoint's answer to a failed check. */
export function captchaError(verdict: Exclude<CaptchaVerdict, { ok: true }>): EndpointError {
  switch (verdict.kind) {
    case 'missing':
      return ERRORS.captchaRequired();
    case 'rejected':
      return ERRORS.captchaFailed();
    case 'misconfigured':
      return ERRORS.captchaMisconfigured();
    case 'unavailable':
      return ERRORS.captchaUnavailable();
  }
}

/**
 * The check the handler runs for a form with CAPTCHA: reads the form's secret (`loadSecret`, the
 * service role) and asks the provider. A form whose secret is missing is refused as misconfigured;
 * a failed read of it as unavailable.
 */
export function createCaptchaCheck(deps: {
  loadSecret(formId: string): Promise<string | null>;
  verifyUrl: string | null;
  log(message: string): void;
  fetch?: typeof fetch;
  timeoutMs?: number;
}) {
  return async (input: {
    formId: string;
    provider: CaptchaProvider;
    fields: readonly (readonly [string, string])[];
    remoteIp: string | null;
    /** The form's allowed origin; its host must be where the challenge was solved. */
    allowedOrigin?: string | null;
  }): Promise<CaptchaVerdict> =>
    checkWithStoredSecret(
      {
        provider: input.provider,
        token: captchaToken(input.provider, input.fields),
        remoteIp: input.remoteIp,
        expectedOrigin: input.allowedOrigin,
        subject: `form ${input.formId}`,
      },
      {
        loadSecret: () => deps.loadSecret(input.formId),
        log: deps.log,
        verifyUrl: deps.verifyUrl,
        fetch: deps.fetch,
        timeoutMs: deps.timeoutMs,
      },
    );
}
