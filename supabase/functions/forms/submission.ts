// Validates and cleans the parsed fields of one submission: limits, trimming, control characters
// (none at all in field names), e-mail checks, and the special fields (_next, _subject, _replyto,
// _idempotency, honeypots, ignored userId and CAPTCHA tokens, the tracker's source fields).
import { IDEMPOTENCY, LIMITS, SPECIAL_FIELDS } from '../_shared/limits.ts';
import { ERRORS, type EndpointError } from './errors.ts';
import type { RawField } from './request-body.ts';
import { isSourceField, readSource, type PostSource } from './source.ts';
import { charLength, cleanFieldName, cleanValue, isEmail } from './text.ts';

interface Submission {
  name: string | null;
  email: string | null;
  message: string | null;
  /** Every other field, in order; repeated names become lists. */
  data: Record<string, string | string[]>;
  /** Every stored field in the order received, for the notification e-mail. */
  ordered: [string, string][];
  next: string | null;
  subject: string | null;
  /** A valid address to reply to: `_replyto`, else `email`. */
  replyTo: string | null;
  /** The post's `_idempotency` key, or null (never stored as a field). */
  idempotencyKey: string | null;
  /** The page and referrer the analytics tracker added (source.ts); never stored as fields. */
  source: PostSource;
  isSpam: boolean;
}

/** 1 to 255 visible ASCII characters: a UUID, a ULID or any token a client makes up. */
export const isIdempotencyKey = (key: string) =>
  key.length <= IDEMPOTENCY.maxKeyLength && /^[\x21-\x7e]+$/.test(key);

export type SubmissionResult =
  { ok: true; submission: Submission } | { ok: false; error: EndpointError };

const COLUMNS = {
  name: LIMITS.maxNameLength,
  email: LIMITS.maxEmailLength,
  message: LIMITS.maxMessageLength,
};
type Column = keyof typeof COLUMNS;
const isColumn = (name: string): name is Column => Object.hasOwn(COLUMNS, name);

const SINGLE_VALUED = new Set<string>([
  'name',
  'email',
  'message',
  SPECIAL_FIELDS.next,
  SPECIAL_FIELDS.subject,
  SPECIAL_FIELDS.replyTo,
  SPECIAL_FIELDS.idempotency,
  // Read by the handler (a direct upload's entry), never stored.
  SPECIAL_FIELDS.uploadsEntry,
]);
const HONEYPOTS = new Set<string>(SPECIAL_FIELDS.honeypots);
const IGNORED = new Set<string>([...SPECIAL_FIELDS.ignored, ...SPECIAL_FIELDS.captcha]);

function maxLengthOf(name: string): number {
  if (isColumn(name)) return COLUMNS[name];
  if (name === SPECIAL_FIELDS.subject) return LIMITS.maxSubjectLength;
  if (name === SPECIAL_FIELDS.next) return LIMITS.maxNextUrlLength;
  return LIMITS.maxOtherValueLength;
}

export function validateSubmission(raw: RawField[]): SubmissionResult {
  if (raw.length > LIMITS.maxFields) {
    return {
      ok: false,
      error: ERRORS.tooLarge(`A submission has at most ${LIMITS.maxFields} fields.`),
    };
  }
  // No prototype on either map: a field called `__proto__` must stay an ordinary key (assigning
  // it on a plain object is silently ignored, which would lose the field or its problem).
  const problems: Record<string, string> = Object.create(null);
  const seen = new Set<string>();
  const values = new Map<string, string>();
  const data: Record<string, string | string[]> = Object.create(null);
  const ordered: [string, string][] = [];
  let isSpam = false;

  for (const [rawName, rawValue] of raw) {
    const name = cleanFieldName(rawName);
    if (name === '') return { ok: false, error: ERRORS.invalidBody('Every field needs a name.') };
    // Read by readSource below; a value it cannot use is dropped, never a refusal.
    if (isSourceField(name)) continue;
    const key = name.slice(0, LIMITS.maxFieldNameLength);
    if (charLength(name) > LIMITS.maxFieldNameLength) {
      problems[key] = `Field names are at most ${LIMITS.maxFieldNameLength} characters.`;
      continue;
    }
    const value = cleanValue(rawValue);
    const max = maxLengthOf(name);
    if (charLength(value) > max) {
      problems[key] = `At most ${max} characters.`;
      continue;
    }
    if (SINGLE_VALUED.has(name) && seen.has(name)) {
      problems[key] = 'Send this field only once.';
      continue;
    }
    seen.add(name);
    if (HONEYPOTS.has(name)) {
      if (value !== '') isSpam = true;
      continue;
    }
    if (IGNORED.has(name)) continue;
    if (SINGLE_VALUED.has(name)) {
      values.set(name, value);
      if (isColumn(name)) ordered.push([name, value]);
      continue;
    }
    ordered.push([name, value]);
    const previous = data[name];
    data[name] =
      previous === undefined
        ? value
        : [...(Array.isArray(previous) ? previous : [previous]), value];
  }

  const email = values.get('email') || null;
  if (email && !isEmail(email)) problems.email = 'Enter a valid e-mail address.';
  const replyToField = values.get(SPECIAL_FIELDS.replyTo) || null;
  if (replyToField && !isEmail(replyToField))
    problems[SPECIAL_FIELDS.replyTo] = 'Enter a valid e-mail address.';
  const idempotencyKey = values.get(SPECIAL_FIELDS.idempotency) || null;
  if (idempotencyKey && !isIdempotencyKey(idempotencyKey))
    problems[SPECIAL_FIELDS.idempotency] =
      `An idempotency key is 1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters.`;
  if (Object.keys(problems).length) return { ok: false, error: ERRORS.invalidFields(problems) };

  if (ordered.every(([, v]) => v === '')) return { ok: false, error: ERRORS.emptySubmission() };

  return {
    ok: true,
    submission: {
      name: values.get('name') || null,
      email,
      message: values.get('message') || null,
      data,
      ordered,
      next: values.get(SPECIAL_FIELDS.next) || null,
      subject: values.get(SPECIAL_FIELDS.subject) || null,
      replyTo: replyToField ?? email,
      idempotencyKey,
      source: readSource(raw),
      isSpam,
    },
  };
}
