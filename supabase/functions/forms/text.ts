// Text hygiene shared by the submission parser and the e-mail composer: strict UTF-8 decoding,
// control-character removal and the e-mail address check.
import { CONTROL_CHARS } from '../_shared/header-safe.ts';

/** Raised when bytes are not valid UTF-8; the endpoint answers 400 rather than guessing. */
export class InvalidUtf8Error extends Error {
  constructor() {
    super('The request body is not valid UTF-8.');
  }
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes UTF-8 and throws InvalidUtf8Error on malformed input (no U+FFFD substitution). */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new InvalidUtf8Error();
  }
}

// Lone surrogates can only come from JSON escapes; Postgres rejects them, so drop them here.
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Trims and removes control characters other than newline and tab. */
export function cleanValue(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL_CHARS, '')
    .replace(LONE_SURROGATES, '')
    .trim();
}

// Every control character (C0 including tab and line breaks, DEL, C1) and the Unicode line and
// paragraph separators: none of them belongs in a field name, and each could start a new line.
// eslint-disable-next-line no-control-regex
const NAME_BREAKERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/**
 * A field name as stored and mailed: every run of control characters and line separators becomes
 * one space, so `"multi\nline name"` cannot forge a line of the notification; then trimmed.
 */
export function cleanFieldName(name: string): string {
  return name.replace(NAME_BREAKERS, ' ').replace(LONE_SURROGATES, '').trim();
}

/** Length in Unicode code points, which is what "characters" means in the limits. */
export function charLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

// Deliberately simple (as browsers' type=email): one @, no spaces or angle brackets, a dotted
// domain. Anything that passes is safe inside a Reply-To header once CR/LF are excluded.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value) && !value.includes('..');
}
