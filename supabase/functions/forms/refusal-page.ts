// The site page a visitor's browser lands on when the endpoint refuses its form post
// (`${SITE_URL}/form-error?code=…`), as it lands on `/thanks` after a success: Edge Functions
// cannot serve HTML without a custom domain, so the function redirects and the site renders. The
// address carries only what the function decided — the refusal's code, the seconds to wait and
// the *names* of the fields at fault — never anything a visitor typed, and the page reads it back
// through `readRefusalParams`, which keeps only values of those shapes: a link someone crafts
// cannot make the page show their sentences. Pure module (no Deno API): the site imports it too.
import type { EndpointError } from './errors.ts';

/** The site's page, beside `/thanks` (the site's router serves it under the same path). */
export const REFUSAL_PAGE_PATH = '/form-error';

/** The page's code for a submission whose every field was empty (the endpoint's invalid_fields). */
export const EMPTY_SUBMISSION = 'empty_submission';

/** At most this many field names are named on the page ("and others" beyond). */
export const MAX_SHOWN_FIELDS = 5;
/** Longest wait the address carries, in seconds (31 days: a monthly allowance starting again). */
export const MAX_RETRY_SECONDS = 31 * 86_400;

// A field name as a form's HTML names it (`email`, `first_name`, `items[]`, `Nachricht`): letters,
// digits and a few joiners, no spaces, at most 40 characters — a name, never a sentence.
const FIELD_NAME = /^[\p{L}\p{N}][\p{L}\p{N}_.\-[\]]{0,39}$/u;
const CODE = /^[a-z][a-z_]{0,39}$/;

const isShownFieldName = (name: string) => FIELD_NAME.test(name);

/** The page's code for a refusal: the endpoint's code, the empty submission told apart. */
export function refusalPageCode(err: Pick<EndpointError, 'code' | 'fields'>): string {
  if (err.code === 'invalid_fields' && Object.keys(err.fields ?? {}).length === 0)
    return EMPTY_SUBMISSION;
  return err.code;
}

/** Where the endpoint sends a browser whose post it refused: `${siteUrl}/form-error?code=…`. */
export function refusalPageUrl(
  siteUrl: string,
  err: Pick<EndpointError, 'code' | 'fields' | 'retryAfter'>,
): string {
  const params = new URLSearchParams({ code: refusalPageCode(err) });
  if (err.retryAfter !== undefined)
    params.set(
      'retry',
      String(Math.min(MAX_RETRY_SECONDS, Math.max(1, Math.ceil(err.retryAfter)))),
    );
  const names = Object.keys(err.fields ?? {}).filter(isShownFieldName);
  if (names.length) params.set('fields', names.slice(0, MAX_SHOWN_FIELDS + 1).join(','));
  return `${siteUrl.replace(/\/+$/, '')}${REFUSAL_PAGE_PATH}?${params}`;
}

export interface RefusalParams {
  /** A code-shaped value (the page still checks it is one it knows); null when absent or not. */
  code: string | null;
  /** Seconds to wait, 1 to MAX_RETRY_SECONDS; null when absent or not a whole number. */
  retry: number | null;
  /** The field names at fault, at most MAX_SHOWN_FIELDS; anything not name-shaped is dropped. */
  fields: string[];
  /** More field names were given than are shown. */
  moreFields: boolean;
}

/** The page's reading of its address: only values of the shapes the function writes. */
export function readRefusalParams(params: URLSearchParams): RefusalParams {
  const code = params.get('code');
  const retryText = params.get('retry') ?? '';
  const retry = /^\d{1,7}$/.test(retryText) ? Number(retryText) : NaN;
  const names = (params.get('fields') ?? '')
    .split(',')
    .filter((name) => name !== '' && isShownFieldName(name));
  const unique = [...new Set(names)];
  return {
    code: code !== null && CODE.test(code) ? code : null,
    retry: retry >= 1 && retry <= MAX_RETRY_SECONDS ? retry : null,
    fields: unique.slice(0, MAX_SHOWN_FIELDS),
    moreFields: unique.length > MAX_SHOWN_FIELDS,
  };
}
