// Reads the bodies of the function's requests. The footer's sign-up: exactly one field, `email`,
// as JSON (`{"email": "…"}`) or urlencoded (`email=…`); anything else (arrays, several addresses,
// other fields) is refused, so one request can never carry more than one address. A list's signup
// form (parseListSignup): `email`, an optional `name` and the honeypot `_gotcha`, from an HTML
// form (urlencoded or multipart) or fetch (JSON); again one address at most. Addresses are checked
// with the same rules as the database.
import { LISTS, NEWSLETTER, SPECIAL_FIELDS } from '../_shared/limits.ts';
import { readLimited } from '../_shared/read-limited.ts';

/** Reads the body of a small request; null when it is longer than `limit`. */
export async function readSmallBody(req: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await req.body?.cancel().catch(() => undefined);
    return null;
  }
  return readLimited(req, limit);
}

export type ParsedSignup =
  | { ok: true; email: string }
  | { ok: false; problem: 'unsupported_type' | 'invalid_body' | 'invalid_email' };

/** newsletter_subscribers_email_format of migration 20250711120300_newsletter.sql, verbatim. */
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** The address as stored (trimmed, lower case), or null when the database would refuse it. */
function normaliseEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  if (email.length === 0 || email.length > NEWSLETTER.maxEmailLength) return null;
  return EMAIL.test(email) ? email : null;
}

type BodyKind = 'json' | 'urlencoded' | 'multipart';

function bodyKind(contentType: string | null): BodyKind | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'urlencoded';
  if (type === 'multipart/form-data') return 'multipart';
  return null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function parseSignup(contentType: string | null, body: Uint8Array): ParsedSignup {
  const kind = bodyKind(contentType);
  if (!kind || kind === 'multipart') return { ok: false, problem: 'unsupported_type' };
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return { ok: false, problem: 'invalid_body' };
  }

  let value: unknown;
  if (kind === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, problem: 'invalid_body' };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return { ok: false, problem: 'invalid_body' };
    const keys = Object.keys(parsed);
    if (keys.length !== 1 || keys[0] !== 'email') return { ok: false, problem: 'invalid_body' };
    value = (parsed as { email: unknown }).email;
  } else {
    const pairs = [...new URLSearchParams(text)];
    if (pairs.length !== 1 || pairs[0]![0] !== 'email')
      return { ok: false, problem: 'invalid_body' };
    value = pairs[0]![1];
  }

  if (typeof value !== 'string') return { ok: false, problem: 'invalid_body' };
  const email = normaliseEmail(value);
  return email ? { ok: true, email } : { ok: false, problem: 'invalid_email' };
}

export type ParsedListSignup =
  | {
      kind: 'signup';
      email: string;
      name: string | null;
      /** The CAPTCHA widgets' token fields that came (by field name), for a list with CAPTCHA. */
      captchaTokens: Record<string, string>;
    }
  /** The honeypot was filled: a bot, answered as a success and never stored. */
  | { kind: 'honeypot' }
  | { kind: 'refused'; problem: 'unsupported_type' | 'invalid_body' }
  | { kind: 'invalid'; field: 'email' | 'name'; message: string };

/** The honeypot field of a list's signup form: hidden from people, so only bots fill it. */
const LIST_HONEYPOT = '_gotcha';

// Refusals in the database's own words (list_subscribe()), so a form shows one text either way.
const LIST_FIELD_MESSAGES = {
  email: 'Enter a valid e-mail address.',
  name: `Keep the name under ${LISTS.maxNameLength} characters.`,
} as const;

/** The list_subscribers_email constraint and autoresponse_address_ok(): the address as stored. */
function listEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  if (email.length === 0 || email.length > LISTS.maxEmailLength || email.includes('..'))
    return null;
  return EMAIL.test(email) ? email : null;
}

/** The name as list_subscribe() stores it: controls become spaces, trimmed, empty is none. */
function listName(value: string): string | null {
  // eslint-disable-next-line no-control-regex
  const name = value.replace(/[\u0001-\u001f\u007f-\u009f]+/g, ' ').trim();
  return name === '' ? null : name;
}

/** The fields of a body as name/value pairs; null when it cannot be read as its type says. */
async function fieldsOf(
  kind: BodyKind,
  contentType: string,
  body: Uint8Array,
): Promise<[string, unknown][] | null> {
  if (kind === 'multipart') {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': contentType },
      }).formData();
    } catch {
      return null;
    }
    const fields: [string, unknown][] = [];
    for (const [name, value] of form.entries()) {
      // A signup has no files.
      if (typeof value !== 'string') return null;
      fields.push([name, value]);
    }
    return fields;
  }
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return null;
  }
  if (kind === 'urlencoded') return [...new URLSearchParams(text)];
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return Object.entries(parsed);
  } catch {
    return null;
  }
}

/**
 * A list's signup: other fields (a submit button's name, the owner's own hidden fields) are
 * ignored; a repeated `email` or `name` is refused, so one request names one address at most.
 */
export async function parseListSignup(
  contentType: string | null,
  body: Uint8Array,
): Promise<ParsedListSignup> {
  const kind = bodyKind(contentType);
  if (!kind) return { kind: 'refused', problem: 'unsupported_type' };
  const fields = await fieldsOf(kind, contentType ?? '', body);
  if (!fields) return { kind: 'refused', problem: 'invalid_body' };
  const values = (name: string) => fields.filter(([key]) => key === name).map(([, v]) => v);

  const trap = values(LIST_HONEYPOT);
  if (trap.some((v) => v !== null && v !== '' && !(typeof v === 'string' && v.trim() === '')))
    return { kind: 'honeypot' };

  const emails = values('email');
  const names = values('name');
  if (emails.length > 1 || names.length > 1) return { kind: 'refused', problem: 'invalid_body' };
  const email = typeof emails[0] === 'string' ? listEmail(emails[0]) : null;
  if (!email) return { kind: 'invalid', field: 'email', message: LIST_FIELD_MESSAGES.email };
  const given = names[0];
  if (given !== undefined && given !== null && typeof given !== 'string')
    return { kind: 'invalid', field: 'name', message: LIST_FIELD_MESSAGES.name };
  const name = typeof given === 'string' ? listName(given) : null;
  if (name !== null && Array.from(name).length > LISTS.maxNameLength)
    return { kind: 'invalid', field: 'name', message: LIST_FIELD_MESSAGES.name };
  const captchaTokens: Record<string, string> = {};
  for (const field of SPECIAL_FIELDS.captcha) {
    const token = values(field).find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (token !== undefined) captchaTokens[field] = token.trim();
  }
  return { kind: 'signup', email, name, captchaTokens };
}
