// Reads a sign-up request's body: exactly one field, `email`, as JSON (`{"email": "…"}`) or
// urlencoded (`email=…`); anything else (arrays, several addresses, other fields) is refused, so
// one request can never carry more than one address. The address is checked with the same rule
// as the database's check constraint on newsletter_subscribers.email.
import { NEWSLETTER } from '../_shared/limits.ts';

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

function bodyKind(contentType: string | null): 'json' | 'urlencoded' | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'urlencoded';
  return null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function parseSignup(contentType: string | null, body: Uint8Array): ParsedSignup {
  const kind = bodyKind(contentType);
  if (!kind) return { ok: false, problem: 'unsupported_type' };
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
