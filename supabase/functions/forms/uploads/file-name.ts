// What an uploaded file is called: the name the visitor's browser sent, made safe twice over.
// - `shownName`: what the inbox, the e-mail and a download call it. Unicode is kept; folders are
//   dropped (a name is its last segment, after either slash), and so are control characters and
//   the bidirectional controls that reorder text ('Invoice\u202Efdp.exe' shows as
//   'Invoiceexe.pdf'); at most MAX_SHOWN_NAME characters, the extension kept.
// - `keyName`: the name's part of the object's Storage key. Storage takes only ASCII letters,
//   digits, space and `_ ! . * ' ( ) & $ = @ ; : + , ? -` in keys, so accents are folded and
//   anything else becomes `_`; at most MAX_KEY_NAME characters, the extension kept.
// Pure code: the same under Deno and Node.

/** Longest name shown, in characters (code points). */
export const MAX_SHOWN_NAME = 150;
/** Longest name in an object key, in characters (ASCII). */
export const MAX_KEY_NAME = 100;
/** The name of a file whose name has nothing left. */
const FALLBACK = 'file';
/** The longest extension kept whole when a name is shortened. */
const MAX_EXTENSION = 16;

// C0 and C1 controls, DEL; the bidirectional controls (LRE … RLO, LRI … PDI, LRM, RLM, ALM); the
// line and paragraph separators; zero-width and byte-order marks.
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u061c\u2028\u2029\ufeff]/g;
/** What Storage refuses in a key (its key rule, with `/` taken out: a name is one segment). */
const NOT_IN_KEY = /[^A-Za-z0-9 _!.*'()&$=@;:+,?-]/g;

/** The last segment of a path sent as a name, with either slash. */
function lastSegment(raw: string): string {
  const segments = raw.split(/[/\\]/);
  return segments[segments.length - 1] ?? '';
}

/** Shortens `name` to `max` code points, keeping a short extension whole. */
function shorten(name: string, max: number): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? [...name.slice(dot)] : [];
  if (extension.length > 1 && extension.length <= MAX_EXTENSION && extension.length < max) {
    const stem = [...name.slice(0, dot)]
      .slice(0, max - extension.length)
      .join('')
      .trimEnd();
    return stem + extension.join('');
  }
  return chars.slice(0, max).join('').trimEnd();
}

/** Dots and spaces at either end say nothing and hide files on some systems: trimmed. */
const trimEnds = (name: string) => name.replace(/^[\s.]+|[\s.]+$/g, '');

/** The file's name as shown: its last segment, without controls, collapsed spaces, capped. */
export function shownName(raw: string): string {
  const name = trimEnds(lastSegment(raw.normalize('NFC')).replace(UNSAFE, '').replace(/\s+/g, ' '));
  if (name === '' || name === '.' || name === '..') return FALLBACK;
  return shorten(name, MAX_SHOWN_NAME);
}

/** The name's part of a Storage key: ASCII only, accents folded, the rest as `_`, capped. */
export function keyName(shown: string): string {
  const ascii = shown
    .normalize('NFKD')
    // Combining marks, once the letters are decomposed: 'é' → 'e'.
    .replace(/\p{M}/gu, '')
    .replace(NOT_IN_KEY, '_')
    .replace(/_{2,}/g, '_');
  const name = trimEnds(ascii);
  if (name === '' || /^[_.\s]*$/.test(name)) return FALLBACK;
  return shorten(name, MAX_KEY_NAME);
}
