// Reads the booking function's JSON bodies: a booking, a cancellation's reason, a new start. Each
// field is checked as the database checks it (lengths of limits.ts' BOOKING), so a visitor hears
// which field is wrong before anything is asked of storage; the database checks again.
import { MAX_CAPTCHA_TOKEN_LENGTH } from '../_shared/captcha.ts';
import { BOOKING } from '../_shared/limits.ts';
import type { InvalidField } from './model.ts';

export type Parsed<T> =
  | { ok: true; value: T }
  | { ok: false; problem: 'invalid_json' }
  | { ok: false; problem: 'invalid'; field: InvalidField | 'slug'; message: string };

export interface BookBody {
  slug: string;
  start: string;
  name: string;
  email: string;
  note: string;
  timeZone: string;
  /** The honeypot: people never see the field, so anything in it was typed by a bot. */
  honeypot: boolean;
  captchaToken: string | null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as a JSON object; an empty body is `{}` when `emptyIsObject` allows it. */
function objectOf(bytes: Uint8Array, emptyIsObject: boolean): Record<string, unknown> | null {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return null;
  }
  if (!text.trim()) return emptyIsObject ? {} : null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const invalid = (field: InvalidField | 'slug', message: string) =>
  ({ ok: false, problem: 'invalid', field, message }) as const;

const length = (value: string) => Array.from(value).length;

// Refusals in the database's own words (booking_request()), so a page shows one text either way.
const NAME_MESSAGE = `Enter your name (at most ${BOOKING.maxNameLength} characters).`;

/** An instant with its offset (`2026-12-01T08:00:00Z`, `…T09:00+01:00`), as UTC ISO 8601. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

function instantOf(value: unknown): string | null {
  if (typeof value !== 'string' || !INSTANT.test(value.trim())) return null;
  const time = Date.parse(value.trim());
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** A zone name as the database takes it (Area/City, UTC; no offsets); it checks the name too. */
const ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

const isZoneName = (value: string) => value.length <= 64 && ZONE.test(value);

/** A plausible address: one @, something either side, no spaces or controls. */
// eslint-disable-next-line no-control-regex
const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/;

export function parseBook(bytes: Uint8Array): Parsed<BookBody> {
  const body = objectOf(bytes, false);
  if (!body) return { ok: false, problem: 'invalid_json' };

  if (typeof body.slug !== 'string' || !body.slug.trim())
    return invalid('slug', 'Say which booking page this is for (slug).');
  const start = instantOf(body.start);
  if (!start) return invalid('start', 'Choose a time.');
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name) return invalid('name', NAME_MESSAGE);
  if (length(name) > BOOKING.maxNameLength) return invalid('name', NAME_MESSAGE);
  const email = typeof body.email === 'string' ? body.email.trim() : '';
  if (length(email) > BOOKING.maxEmailLength || !EMAIL.test(email))
    return invalid('email', 'Enter a valid e-mail address.');
  if (body.note !== undefined && body.note !== null && typeof body.note !== 'string')
    return invalid('note', 'The note must be text.');
  const note = typeof body.note === 'string' ? body.note.trim() : '';
  if (length(note) > BOOKING.maxNoteLength)
    return invalid('note', `Keep the note under ${BOOKING.maxNoteLength} characters.`);
  const timeZone = typeof body.timeZone === 'string' ? body.timeZone.trim() : '';
  if (!isZoneName(timeZone)) return invalid('time_zone', 'Choose a time zone from the list.');

  const website = body.website;
  const honeypot =
    website !== undefined &&
    website !== null &&
    website !== false &&
    !(typeof website === 'string' && website.trim() === '');
  const token = body.captchaToken;
  const captchaToken =
    typeof token === 'string' && token.trim()
      ? token.trim().slice(0, MAX_CAPTCHA_TOKEN_LENGTH + 1)
      : null;

  return {
    ok: true,
    value: { slug: body.slug.trim(), start, name, email, note, timeZone, honeypot, captchaToken },
  };
}

/** A cancellation: `{reason?}` (an empty body is no reason). */
export function parseCancel(bytes: Uint8Array): Parsed<{ reason: string }> {
  const body = objectOf(bytes, true);
  if (!body) return { ok: false, problem: 'invalid_json' };
  if (body.reason !== undefined && body.reason !== null && typeof body.reason !== 'string')
    return invalid('reason', 'The reason must be text.');
  const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
  if (length(reason) > BOOKING.maxReasonLength)
    return invalid('reason', `Keep the reason under ${BOOKING.maxReasonLength} characters.`);
  return { ok: true, value: { reason } };
}

/** A move: `{start}`. */
export function parseReschedule(bytes: Uint8Array): Parsed<{ start: string }> {
  const body = objectOf(bytes, false);
  if (!body) return { ok: false, problem: 'invalid_json' };
  const start = instantOf(body.start);
  if (!start) return invalid('start', 'Choose a time.');
  return { ok: true, value: { start } };
}
