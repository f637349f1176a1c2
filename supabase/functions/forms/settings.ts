// Reads the endpoint's deployment settings that are easy to get wrong (SITE_URL, the proxy secret,
// the test-only FORMS_RATE_LIMITS) and says at start what a missing or unsafe value means, instead of failing visitors quietly.
import { MIN_PROXY_SECRET_LENGTH, type ClientIpPolicy } from '../_shared/client-ip.ts';
import { LIMITS } from '../_shared/limits.ts';

type Env = (name: string) => string | undefined;
type Warn = (message: string) => void;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLocal(url: string | undefined): boolean {
  try {
    return url ? LOCAL_HOSTS.has(new URL(url).hostname) : false;
  } catch {
    return false;
  }
}

/**
 * SITE_URL, or null when unset or unusable: then a browser post without `_next` or a form
 * thank-you page gets a neutral thank-you answer (and a refused one its refusal as plain text),
 * never a redirect to a development address.
 */
/**
 * The address visitors and webhook receivers reach Supabase at, for the file URLs the function
 * hands out (webhook payloads' signed downloads, the embed's signed uploads): SUPABASE_PUBLIC_URL
 * when set, else SUPABASE_URL. Hosted Supabase gives functions the project's public URL, so only a
 * self-hosted stack whose functions see an internal address (e.g. http://kong:8000) sets it.
 */
export function publicUrlFromEnv(env: Env, warn: Warn): string {
  const internal = (env('SUPABASE_URL') ?? '').replace(/\/+$/, '');
  const raw = env('SUPABASE_PUBLIC_URL')?.trim();
  if (!raw) return internal;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL at all: ignored below like any other scheme.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    warn(
      `SUPABASE_PUBLIC_URL is not an http(s) address (${raw}) and is ignored: file links are ` +
        `built from SUPABASE_URL (${internal}).`,
    );
    return internal;
  }
  return raw.replace(/\/+$/, '');
}

export function siteUrlFromEnv(env: Env, warn: Warn): string | null {
  const raw = env('SITE_URL')?.trim();
  if (!raw) {
    warn(
      'SITE_URL is not set: browser posts without _next (or a thank-you page in the form settings) ' +
        'get a plain "Thank you" answer instead of your site\'s /thanks page, and refused ones a ' +
        "line of plain text instead of its /form-error page. Set SITE_URL to your site's address, " +
        'e.g. https://forms.example.com.',
    );
    return null;
  }
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // Not a URL at all: refused below like any other scheme.
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    warn(
      `SITE_URL is not an http(s) URL (${raw}) and is ignored: visitors get a plain "Thank you".`,
    );
    return null;
  }
  if (isLocal(raw) && !isLocal(env('SUPABASE_URL'))) {
    warn(
      `SITE_URL points at this computer (${raw}) but the function does not run locally: ` +
        'visitors would be sent to an address that only works on your machine. Set SITE_URL to ' +
        "your site's public address.",
    );
  }
  return raw;
}

/**
 * The client-address policy: which proxy, besides Supabase's gateway, may name the client. Warns
 * about a secret too short to trust and about the settings older versions read.
 */
export function clientIpPolicyFromEnv(env: Env, warn: Warn): ClientIpPolicy {
  // Read only to warn: following older advice (two trusted hops for the rewrite) let a direct
  // caller pick any address, so these must not silently keep meaning something.
  const retired = {
    FORMS_TRUSTED_PROXY_HOPS: env('FORMS_TRUSTED_PROXY_HOPS'),
    FORMS_CLIENT_IP_HEADER: env('FORMS_CLIENT_IP_HEADER'),
  };
  for (const [name, value] of Object.entries(retired)) {
    if (value?.trim()) {
      warn(
        `${name} is no longer read: a client's address is the X-Forwarded-For entry Supabase's ` +
          'gateway appended, or, for requests carrying the X-Tinyback-Proxy-Secret header, the one ' +
          'your /api/forms proxy appended (set FORMS_PROXY_SECRET; see the README). Remove it.',
      );
    }
  }
  const secret = env('FORMS_PROXY_SECRET')?.trim() ?? '';
  if (secret && secret.length < MIN_PROXY_SECRET_LENGTH) {
    warn(
      `FORMS_PROXY_SECRET is shorter than ${MIN_PROXY_SECRET_LENGTH} characters and is ignored: ` +
        "requests through your /api/forms proxy are counted by the proxy's address. Generate one " +
        'with `openssl rand -hex 32`.',
    );
    return { proxySecret: null };
  }
  return { proxySecret: secret || null };
}

/** The submission caps `accept_submission` enforces (per client, per form, per account). */
export interface SubmissionLimits {
  perMinute: number;
  perDay: number;
  formPerMinute: number;
  accountPerHour: number;
  accountPerDay: number;
}

/** Caps high enough never to bind, for FORMS_RATE_LIMITS=off (a Postgres int fits them). */
const LIFTED = 1_000_000_000;

/**
 * The caps of LIMITS, unless FORMS_RATE_LIMITS is exactly `off`: a test-only setting for
 * benchmarks and load tests that post from one machine. Any other value keeps the caps, so a typo
 * can never open a deployment to floods; `off` warns loudly at every start.
 */
export function submissionLimitsFromEnv(env: Env, warn: Warn): SubmissionLimits {
  if (env('FORMS_RATE_LIMITS')?.trim() === 'off') {
    warn(
      'FORMS_RATE_LIMITS=off: RATE LIMITS ARE LIFTED. Any client may post any number of messages ' +
        'and queue any number of e-mails. This is for benchmarks and load tests only; never set ' +
        'it in production.',
    );
    return {
      perMinute: LIFTED,
      perDay: LIFTED,
      formPerMinute: LIFTED,
      accountPerHour: LIFTED,
      accountPerDay: LIFTED,
    };
  }
  return {
    perMinute: LIMITS.ratePerMinute,
    perDay: LIMITS.ratePerDay,
    formPerMinute: LIMITS.formRatePerMinute,
    accountPerHour: LIMITS.notificationsPerHour,
    accountPerDay: LIMITS.notificationsPerDay,
  };
}
