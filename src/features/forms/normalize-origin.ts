// The allowed origin of a form, as people paste it and as the database stores it. Mirrors the
// `normalize_form()` trigger (trim, lower-case, one trailing slash removed) and the
// `forms_allowed_origin_format` constraint of supabase/migrations/20250711120100_forms.sql, so the
// dialog refuses exactly what the database would, with a message that says how to fix it.

const ORIGIN_MAX_LENGTH = 300;

/** scheme://host[:port]: a DNS name (one label such as `localhost` included), IPv4 or [IPv6]. */
const ORIGIN_FORMAT =
  /^https?:\/\/([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$/;

/** The example every message about origins shows. */
export const ORIGIN_EXAMPLE = 'https://your-site.com';

/**
 * What the database will store for `input`: surrounding spaces dropped, lower case (scheme and
 * host are case-insensitive, and the endpoint compares plain text), one trailing slash removed.
 */
export function normalizeOrigin(input: string): string {
  return input.trim().toLowerCase().replace(/\/$/, '');
}

/** True when a normalised value satisfies the database's origin constraint. */
export function isValidOrigin(value: string): boolean {
  return value.length <= ORIGIN_MAX_LENGTH && ORIGIN_FORMAT.test(value);
}

/**
 * Why a normalised value is not an origin, in words that say what to change; null when it is one.
 * The checks run from the most common slip (no scheme) to the generic message.
 */
export function originProblem(value: string): string | null {
  if (isValidOrigin(value)) return null;
  if (value.length > ORIGIN_MAX_LENGTH) {
    return `An origin is at most ${ORIGIN_MAX_LENGTH} characters.`;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//.exec(value);
  if (!scheme) return `Start with https:// (or http://), e.g. ${ORIGIN_EXAMPLE}.`;
  if (scheme[1] !== 'http' && scheme[1] !== 'https') {
    return `Use an http:// or https:// address, e.g. ${ORIGIN_EXAMPLE}.`;
  }
  const rest = value.slice(scheme[0].length);
  const hostAndPort = rest.split(/[/?#]/, 1)[0];
  if (hostAndPort !== rest && hostAndPort !== '') {
    return `Only the site's address: leave out the path and everything after it, e.g. ${ORIGIN_EXAMPLE}.`;
  }
  if (hostAndPort.includes('@')) return 'Leave out the user name and password.';
  return `Enter an origin such as ${ORIGIN_EXAMPLE}: scheme, host and an optional port.`;
}
