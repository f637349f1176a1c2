// The tracker's event payload: the JSON fields it sends, checked and reduced to what is kept. Only
// the page's path and three UTM parameters survive of its URL (other query parameters and the
// fragment can carry personal data: tokens, e-mail addresses), only the host of its referrer, and a
// class instead of the screen's width. Pure code, unit-tested under Node.
import { isUuid } from '../_shared/uuid.ts';
import type { ScreenClass, TrackedEvent } from './model.ts';
import { countryOfTimeZone } from './time-zone-countries.ts';

/** The contract's limits (the tracker, src/config/analytics-tracker.ts, keeps within them). */
export const PAYLOAD_LIMITS = {
  bodyBytes: 2_048,
  nameMax: 50,
  urlMax: 2_000,
  screenMax: 10_000,
  timeZoneMax: 64,
  propsMax: 5,
  propKeyMax: 40,
  propValueMax: 200,
  /** A kept UTM value is cut to this many characters. */
  utmMax: 200,
} as const;

/** Upper widths (exclusive) of the screen classes; wider is `desktop`. */
const SCREEN_CLASSES: [number, ScreenClass][] = [
  [576, 'mobile'],
  [992, 'tablet'],
  [1440, 'laptop'],
];

export function screenClass(width: number): ScreenClass {
  for (const [below, name] of SCREEN_CLASSES) if (width < below) return name;
  return 'desktop';
}

/** Event names: letters, digits, space and `_-.:`, as the tracker's custom events allow. */
const EVENT_NAME = /^[\p{L}\p{N} _.:-]+$/u;

export type PayloadCheck = { ok: true; event: TrackedEvent } | { ok: false; error: string };

const refuse = (error: string): PayloadCheck => ({ ok: false, error });

/** Reads a body (text/plain or application/json alike) as one event. */
export function parsePayload(body: string): PayloadCheck {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return refuse('The body must be a JSON object.');
  }
  return checkEvent(data);
}

export function checkEvent(data: unknown): PayloadCheck {
  if (!isObject(data)) return refuse('The body must be a JSON object.');
  const { s, n, u, r, w, z, p } = data;

  if (typeof s !== 'string' || !isUuid(s)) return refuse('`s` must be the site id (a UUID).');

  if (typeof n !== 'string') return refuse('`n` must be the event name.');
  const name = n.trim();
  if (name.length < 1 || [...name].length > PAYLOAD_LIMITS.nameMax || !EVENT_NAME.test(name))
    return refuse(
      `\`n\` must be 1–${PAYLOAD_LIMITS.nameMax} letters, digits, spaces or _ - . : characters.`,
    );

  if (typeof u !== 'string' || u.length > PAYLOAD_LIMITS.urlMax)
    return refuse(`\`u\` must be the page's URL (at most ${PAYLOAD_LIMITS.urlMax} characters).`);
  const page = httpUrl(u);
  if (!page) return refuse('`u` must be an absolute http or https URL.');
  const host = hostOf(page);

  let referrerHost: string | null = null;
  if (r !== undefined && r !== null) {
    if (typeof r !== 'string' || r.length > PAYLOAD_LIMITS.urlMax)
      return refuse(`\`r\` must be the referrer (at most ${PAYLOAD_LIMITS.urlMax} characters).`);
    // An unreadable or non-web referrer (an app's, a file's) says nothing worth keeping.
    const from = httpUrl(r);
    if (from && !sameSite(hostOf(from), host)) referrerHost = hostOf(from) || null;
  }

  let screen: ScreenClass | null = null;
  if (w !== undefined && w !== null) {
    if (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w > PAYLOAD_LIMITS.screenMax)
      return refuse(`\`w\` must be the screen width, an integer 0–${PAYLOAD_LIMITS.screenMax}.`);
    screen = screenClass(w);
  }

  let country: string | null = null;
  if (z !== undefined && z !== null) {
    if (typeof z !== 'string' || z.length > PAYLOAD_LIMITS.timeZoneMax)
      return refuse(
        `\`z\` must be the IANA time zone (at most ${PAYLOAD_LIMITS.timeZoneMax} characters).`,
      );
    country = countryOfTimeZone(z);
  }

  let props: Record<string, string> | null = null;
  if (p !== undefined && p !== null) {
    const checked = checkProps(p);
    if (typeof checked === 'string') return refuse(checked);
    props = checked;
  }

  const utm = (key: string) => {
    const value = page.searchParams.get(key)?.trim();
    return value ? [...value].slice(0, PAYLOAD_LIMITS.utmMax).join('') : null;
  };
  return {
    ok: true,
    event: {
      siteId: s.toLowerCase(),
      name,
      host,
      // Never empty: a URL with a host always has at least `/`.
      path: page.pathname || '/',
      referrerHost,
      utmSource: utm('utm_source'),
      utmMedium: utm('utm_medium'),
      utmCampaign: utm('utm_campaign'),
      screen,
      country,
      props,
    },
  };
}

/** `p`: at most 5 keys of 1–40 characters, each a string of at most 200; {} is none. */
function checkProps(p: unknown): Record<string, string> | null | string {
  const { propsMax, propKeyMax, propValueMax } = PAYLOAD_LIMITS;
  const rule = `\`p\` must be an object of at most ${propsMax} keys (1–${propKeyMax} characters) with string values of at most ${propValueMax} characters.`;
  if (!isObject(p)) return rule;
  const entries = Object.entries(p);
  if (entries.length > propsMax) return rule;
  for (const [key, value] of entries) {
    if (key.length < 1 || [...key].length > propKeyMax) return rule;
    if (typeof value !== 'string' || [...value].length > propValueMax) return rule;
  }
  return entries.length ? (Object.fromEntries(entries) as Record<string, string>) : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The URL's host name, lower case (the URL parser's), without a trailing dot. */
function hostOf(url: URL): string {
  return url.hostname.replace(/\.$/, '');
}

/** A referrer from the page's own site (with or without `www.`) is a move within the visit. */
function sameSite(a: string, b: string): boolean {
  const bare = (h: string) => h.replace(/^www\./, '');
  return bare(a) === bare(b);
}
