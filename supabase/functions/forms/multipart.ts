// A small, strict multipart/form-data reader for text fields. Written by hand (rather than
// Request.formData()) so that truncated bodies, malformed part headers and file parts are told
// apart and answered precisely, identically under Deno and Node.
import { decodeUtf8 } from './text.ts';

export type MultipartResult =
  { ok: true; fields: [string, string][] } | { ok: false; reason: 'malformed' | 'file' };

const CRLF = new Uint8Array([13, 10]);
const enc = new TextEncoder();

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const last = haystack.length - needle.length;
  outer: for (let i = from; i <= last; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The boundary parameter of a multipart Content-Type, or null when missing or invalid. */
export function multipartBoundary(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

/** Parses a Content-Disposition header: `form-data; name="x"; filename="y"`. */
function parseDisposition(value: string): { name?: string; hasFilename: boolean } | null {
  const parts = value.split(';').map((p) => p.trim());
  if (parts[0].toLowerCase() !== 'form-data') return null;
  let name: string | undefined;
  let hasFilename = false;
  for (const p of parts.slice(1)) {
    const m = /^([a-z*]+)=(?:"((?:[^"\\]|\\.)*)"|([^"]*))$/i.exec(p);
    if (!m) return null;
    const key = m[1].toLowerCase();
    const val = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
    if (key === 'name') name = val;
    else if (key === 'filename' || key === 'filename*') hasFilename = true;
  }
  return { name, hasFilename };
}

export function parseMultipart(body: Uint8Array, boundary: string): MultipartResult {
  const delimiter = enc.encode(`--${boundary}`);
  // The body must start with the first delimiter (a preamble is allowed by RFC 2046 but browsers
  // never send one; refusing it keeps the parser small).
  let pos = indexOf(body, delimiter, 0);
  if (pos !== 0) return { ok: false, reason: 'malformed' };
  const fields: [string, string][] = [];
  const next = enc.encode(`\r\n--${boundary}`);
  for (;;) {
    pos += delimiter.length;
    // After a delimiter: `--` closes the body, CRLF starts a part.
    if (body[pos] === 45 && body[pos + 1] === 45) return { ok: true, fields };
    if (body[pos] !== 13 || body[pos + 1] !== 10) return { ok: false, reason: 'malformed' };
    pos += 2;
    const headerEnd = indexOf(body, enc.encode('\r\n\r\n'), pos);
    if (headerEnd < 0) return { ok: false, reason: 'malformed' };
    let headerText: string;
    try {
      headerText = decodeUtf8(body.subarray(pos, headerEnd));
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    let disposition: ReturnType<typeof parseDisposition> = null;
    let contentType = '';
    for (const line of headerText.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) return { ok: false, reason: 'malformed' };
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'content-disposition') disposition = parseDisposition(value);
      else if (key === 'content-type') contentType = value.toLowerCase();
    }
    if (!disposition || disposition.name === undefined) return { ok: false, reason: 'malformed' };
    const dataStart = headerEnd + 4;
    const dataEnd = indexOf(body, next, dataStart);
    // No closing delimiter: the body was cut off.
    if (dataEnd < 0) return { ok: false, reason: 'malformed' };
    if (disposition.hasFilename || (contentType && !contentType.startsWith('text/plain'))) {
      return { ok: false, reason: 'file' };
    }
    // Invalid UTF-8 in a value propagates as InvalidUtf8Error (a 400 of its own).
    fields.push([disposition.name, decodeUtf8(body.subarray(dataStart, dataEnd))]);
    pos = dataEnd + CRLF.length;
  }
}
