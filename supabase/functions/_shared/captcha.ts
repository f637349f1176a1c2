// Verifying a CAPTCHA token with its provider's siteverify API, for every function that takes
// posts from visitors (a form's, a booking page's). Cloudflare Turnstile, hCaptcha and reCAPTCHA
// v2 (checkbox) are supported; all three answer `success` for a token the visitor earned.
// reCAPTCHA v3 (a score per request) is not: it would need a threshold and an action per form,
// and a v2 check would pass any v3 score.
//
// Verdicts: no token → `missing`; a token the provider refuses (wrong, expired, used twice), or
// one earned on another site than expected (the provider's `hostname`) → `rejected`; the owner's
// secret refused → `misconfigured`; no usable answer in time (network, timeout, 5xx, 429, not
// JSON) → `unavailable`, which callers answer as retryable.

export type CaptchaProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

const VERIFY_URLS: Record<CaptchaProvider, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
};

/** True for the providers the database allows (captcha_provider's check). */
export function isCaptchaProvider(value: unknown): value is CaptchaProvider {
  return typeof value === 'string' && Object.hasOwn(VERIFY_URLS, value);
}

/** Longest wait for the provider's answer; past it the post is refused as retryable. */
const CAPTCHA_TIMEOUT_MS = 5_000;
/** Tokens are at most ~2 KB; anything much longer is refused without asking the provider. */
export const MAX_CAPTCHA_TOKEN_LENGTH = 8_192;

export type CaptchaVerdict =
  | { ok: true }
  | { ok: false; kind: 'missing' | 'rejected' | 'misconfigured' | 'unavailable'; detail: string };

// Error codes that say the owner's secret (not the visitor's token) is wrong.
const SECRET_ERRORS = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'sitekey-secret-mismatch',
  'invalid-sitekey',
]);

export interface VerifyOptions {
  /** Where to ask instead of the provider (CAPTCHA_VERIFY_URL_OVERRIDE, tests only). */
  verifyUrl?: string | null;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Asks the provider whether `token` is good; never throws. */
export async function verifyCaptcha(
  input: {
    provider: CaptchaProvider;
    secret: string;
    token: string | null;
    /** The client's address as the function trusts it (never one the client wrote). */
    remoteIp: string | null;
    /** The host the challenge must have been solved on. Null: not compared. */
    expectedHostname?: string | null;
  },
  options: VerifyOptions = {},
): Promise<CaptchaVerdict> {
  if (!input.token) return { ok: false, kind: 'missing', detail: 'no token' };
  if (input.token.length > MAX_CAPTCHA_TOKEN_LENGTH)
    return { ok: false, kind: 'rejected', detail: 'token too long' };
  const form = new URLSearchParams({ secret: input.secret, response: input.token });
  if (input.remoteIp && input.remoteIp !== 'unknown') form.set('remoteip', input.remoteIp);

  let answer: { success?: unknown; 'error-codes'?: unknown; hostname?: unknown };
  try {
    const res = await (options.fetch ?? fetch)(options.verifyUrl ?? VERIFY_URLS[input.provider], {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? CAPTCHA_TIMEOUT_MS),
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, kind: 'unavailable', detail: `siteverify answered ${res.status}` };
    }
    answer = JSON.parse(await res.text());
  } catch (err) {
    return {
      ok: false,
      kind: 'unavailable',
      detail: `siteverify failed: ${(err as Error).message}`,
    };
  }
  if (answer?.success === true) {
    // All three providers say where the challenge was solved; a token from another site (its own
    // keys, or a page of the attacker's with the same site key) is not this visitor's.
    const solvedOn = typeof answer.hostname === 'string' ? answer.hostname.toLowerCase() : null;
    const expected = input.expectedHostname?.toLowerCase() ?? null;
    if (solvedOn && expected && solvedOn !== expected)
      return { ok: false, kind: 'rejected', detail: `solved on ${solvedOn}, not ${expected}` };
    return { ok: true };
  }
  const codes = Array.isArray(answer?.['error-codes'])
    ? answer['error-codes'].filter((c): c is string => typeof c === 'string')
    : [];
  const detail = codes.join(', ') || 'refused';
  if (codes.some((c) => SECRET_ERRORS.has(c))) return { ok: false, kind: 'misconfigured', detail };
  // Turnstile's own trouble: the visitor's token may be fine.
  if (codes.includes('internal-error')) return { ok: false, kind: 'unavailable', detail };
  return { ok: false, kind: 'rejected', detail };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * CAPTCHA_VERIFY_URL_OVERRIDE (tests and local development only): one siteverify URL that stands
 * in for every provider's. Only an http(s) URL on this machine's loopback is taken, so the setting
 * can never send the owners' secrets elsewhere; clients cannot choose it (it is read once, from
 * the function's environment). Returns null when unset or refused.
 */
export function captchaVerifyUrlFromEnv(
  env: (name: string) => string | undefined,
  warn: (message: string) => void,
): string | null {
  const raw = env('CAPTCHA_VERIFY_URL_OVERRIDE')?.trim();
  if (!raw) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || !LOOPBACK_HOSTS.has(url.hostname)) {
    warn('CAPTCHA_VERIFY_URL_OVERRIDE ignored: only an http(s) URL on 127.0.0.1 or localhost.');
    return null;
  }
  warn(`CAPTCHA_VERIFY_URL_OVERRIDE=${url.href}: CAPTCHA tokens are not checked by the providers.`);
  return url.href;
}

/**
 * A token checked with a stored secret (a form's, a booking page's): `loadSecret` reads it as the
 * service role. No token: missing; a failed read: unavailable; no secret stored: misconfigured (the
 * owner's setting is incomplete). Verdicts other than a visitor's missing or refused token are
 * logged, named by `subject`. Never throws.
 */
export async function checkWithStoredSecret(
  input: {
    provider: CaptchaProvider;
    token: string | null;
    remoteIp: string | null;
    /** An origin or URL whose host the challenge must have been solved on; null: not compared. */
    expectedOrigin: string | null | undefined;
    /** What the secret belongs to, in log lines: "form <id>", "booking page <id>". */
    subject: string;
  },
  deps: VerifyOptions & {
    loadSecret(): Promise<string | null>;
    log(message: string): void;
  },
): Promise<CaptchaVerdict> {
  if (!input.token) return { ok: false, kind: 'missing', detail: 'no token' };
  let secret: string | null;
  try {
    secret = await deps.loadSecret();
  } catch (err) {
    deps.log(`captcha secret lookup failed: ${(err as Error).message}`);
    return { ok: false, kind: 'unavailable', detail: 'secret lookup failed' };
  }
  if (!secret) return { ok: false, kind: 'misconfigured', detail: 'no secret stored' };
  const verdict = await verifyCaptcha(
    {
      provider: input.provider,
      secret,
      token: input.token,
      remoteIp: input.remoteIp,
      expectedHostname: hostOf(input.expectedOrigin),
    },
    deps,
  );
  if (!verdict.ok && verdict.kind !== 'missing' && verdict.kind !== 'rejected')
    deps.log(`captcha check of ${input.subject}: ${verdict.kind} (${verdict.detail})`);
  return verdict;
}

/** The host name of an origin or URL such as https://example.com:8443, or null. */
function hostOf(origin: string | null | undefined): string | null {
  if (!origin) return null;
  try {
    return new URL(origin).hostname || null;
  } catch {
    return null;
  }
}
