// Turns a request body (urlencoded, multipart text fields or JSON) into an ordered list of
// name/value pairs, or the precise refusal: 400 malformed, 413 too large, 415 wrong type or file.
import { LIMITS } from '../_shared/limits.ts';
import { ERRORS, type EndpointError } from './errors.ts';
import { multipartBoundary, parseMultipart } from './multipart.ts';
import { decodeUtf8, InvalidUtf8Error } from './text.ts';

export type RawField = [name: string, value: string];
export type BodyResult = { ok: true; fields: RawField[] } | { ok: false; error: EndpointError };

export type BodyKind = 'urlencoded' | 'multipart' | 'json';

/** The body kind named by a Content-Type header, or null when the type is not accepted. */
export function bodyKind(contentType: string | null): BodyKind | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return 'urlencoded';
  if (type === 'multipart/form-data') return 'multipart';
  if (type === 'application/json') return 'json';
  return null;
}

/** Charset parameter other than UTF-8 is refused: we only decode UTF-8. */
function charsetIsUtf8(contentType: string): boolean {
  const m = /;\s*charset="?([^";\s]+)"?/i.exec(contentType);
  return !m || /^utf-?8$/i.test(m[1]);
}

function parseUrlencoded(text: string): RawField[] | null {
  const fields: RawField[] = [];
  if (text === '') return fields;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    try {
      // decodeURIComponent rejects broken %-escapes and escapes of invalid UTF-8 (URIError).
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      fields.push([decode(rawName), decode(rawValue)]);
    } catch {
      return null;
    }
  }
  return fields;
}

function scalarToText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  return null;
}

function parseJsonFields(text: string): BodyResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: ERRORS.invalidBody('The body is not valid JSON.') };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: ERRORS.invalidBody('The JSON body must be an object of fields.') };
  }
  const fields: RawField[] = [];
  // No prototype, so a field called `__proto__` is reported like any other.
  const bad: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    // An array of scalars is a multi-value field (a checkbox group); it becomes repeated pairs.
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const textValue = scalarToText(v);
      if (textValue === null)
        bad[name.slice(0, LIMITS.maxFieldNameLength)] = 'Must be text, a number or a list of them.';
      else fields.push([name, textValue]);
    }
  }
  if (Object.keys(bad).length) return { ok: false, error: ERRORS.invalidFields(bad) };
  return { ok: true, fields };
}

/** Parses a body already known to be at most LIMITS.maxBodyBytes long. */
export function parseBody(contentType: string | null, body: Uint8Array): BodyResult {
  const kind = bodyKind(contentType);
  if (!kind || !charsetIsUtf8(contentType ?? ''))
    return { ok: false, error: ERRORS.unsupportedType() };
  if (body.length > LIMITS.maxBodyBytes) return { ok: false, error: ERRORS.bodyTooLarge() };
  try {
    if (kind === 'multipart') {
      const boundary = multipartBoundary(contentType ?? '');
      if (!boundary)
        return { ok: false, error: ERRORS.invalidBody('The multipart boundary is missing.') };
      const result = parseMultipart(body, boundary);
      if (result.ok) return { ok: true, fields: result.fields };
      return {
        ok: false,
        error:
          result.reason === 'file'
            ? ERRORS.fileUpload()
            : ERRORS.invalidBody('The multipart body is malformed or cut off.'),
      };
    }
    const text = decodeUtf8(body);
    if (kind === 'json') return parseJsonFields(text);
    const fields = parseUrlencoded(text);
    if (!fields)
      return { ok: false, error: ERRORS.invalidBody('The form body has a broken %-escape.') };
    return { ok: true, fields };
  } catch (err) {
    if (err instanceof InvalidUtf8Error)
      return { ok: false, error: ERRORS.invalidBody(err.message) };
    throw err;
  }
}
