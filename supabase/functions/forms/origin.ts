// Where a request comes from (Origin, else Referer) and whether that is the form's allowed origin;
// also decides where a browser goes after a successful post (`_next`, else the form's thank-you page).

/** Normalises an origin or URL to `scheme://host[:port]` (lower case, default port dropped). */
export function originOf(value: string | null | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The origin a request claims: the Origin header, else the origin of the Referer. */
export function requestOrigin(headers: Headers): string | null {
  const origin = headers.get('origin');
  if (origin !== null) return originOf(origin);
  return originOf(headers.get('referer'));
}

/** True when the request's origin equals the form's allowed origin. */
export function originAllowed(headers: Headers, allowedOrigin: string): boolean {
  const actual = requestOrigin(headers);
  const allowed = originOf(allowedOrigin);
  return actual !== null && allowed !== null && actual === allowed;
}

/** The `_next` URL if it is an absolute http(s) URL on the allowed origin; otherwise null. */
export function safeNext(next: string | null, allowedOrigin: string): string | null {
  if (!next) return null;
  const allowed = originOf(allowedOrigin);
  try {
    const url = new URL(next);
    if (allowed === null || url.origin !== allowed) return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

/**
 * The form's own thank-you page (`forms.redirect_url`, set by its owner) if it is an absolute
 * http(s) URL without credentials; otherwise null. The database checks the format on write; this
 * keeps a row written around that check from turning into an odd Location header.
 */
export function safeRedirectUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}
