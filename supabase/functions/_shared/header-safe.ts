// Control characters out of values that become mail headers, for the endpoint's notification and
// the outbox's sender alike.

// C0 controls except \t (09) and \n (0A), DEL, and C1 controls. \r is removed after CRLF → LF so
// that line breaks survive while a lone CR (a header-injection favourite) does not.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Removes CR, LF and other controls from a value about to become a mail header. */
export function headerSafe(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(CONTROL_CHARS, '')
    .trim();
}
