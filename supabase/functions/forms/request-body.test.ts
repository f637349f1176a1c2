// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../_shared/limits.ts';
import { bodyKind, parseBody } from './request-body.ts';

const enc = new TextEncoder();

describe('request bodies', () => {
  it('recognises the three accepted types only', () => {
    expect(bodyKind('application/x-www-form-urlencoded; charset=UTF-8')).toBe('urlencoded');
    expect(bodyKind('multipart/form-data; boundary=x')).toBe('multipart');
    expect(bodyKind('Application/JSON')).toBe('json');
    for (const t of [null, '', 'text/plain', 'application/xml', 'application/jsonx'])
      expect(bodyKind(t)).toBeNull();
  });

  it('parses urlencoded pairs with + and %-escapes, keeping repeats', () => {
    const r = parseBody(
      'application/x-www-form-urlencoded',
      enc.encode('name=Ada+L&msg=a%26b%0Ac&tag=1&tag=2&flag'),
    );
    expect(r).toEqual({
      ok: true,
      fields: [
        ['name', 'Ada L'],
        ['msg', 'a&b\nc'],
        ['tag', '1'],
        ['tag', '2'],
        ['flag', ''],
      ],
    });
  });

  it('refuses broken escapes and invalid UTF-8 with 400', () => {
    for (const raw of ['a=%zz', 'a=%', 'a=%ff', 'a=%c3']) {
      const r = parseBody('application/x-www-form-urlencoded', enc.encode(raw));
      expect(r.ok ? 0 : r.error.status).toBe(400);
    }
    const r = parseBody('application/x-www-form-urlencoded', new Uint8Array([0x61, 0x3d, 0xff]));
    expect(r.ok ? 0 : r.error.code).toBe('invalid_body');
  });

  it('parses JSON objects; scalars become text, arrays repeat', () => {
    const r = parseBody(
      'application/json',
      enc.encode('{"name":"Ada","n":3,"ok":true,"none":null,"tags":["a",1]}'),
    );
    expect(r).toEqual({
      ok: true,
      fields: [
        ['name', 'Ada'],
        ['n', '3'],
        ['ok', 'true'],
        ['none', ''],
        ['tags', 'a'],
        ['tags', '1'],
      ],
    });
  });

  it('refuses bad JSON (400) and nested objects (422)', () => {
    for (const raw of ['{', '[]', '"x"', '3', 'null', '']) {
      const r = parseBody('application/json', enc.encode(raw));
      expect(r.ok ? 0 : r.error.status).toBe(400);
    }
    const r = parseBody('application/json', enc.encode('{"a":{"b":1}}'));
    expect(r.ok ? 0 : r.error.status).toBe(422);
    const proto = parseBody('application/json', enc.encode('{"name":"Ada","__proto__":{"b":1}}'));
    expect(proto.ok ? {} : proto.error.fields).toEqual(
      JSON.parse('{"__proto__":"Must be text, a number or a list of them."}'),
    );
  });

  it('refuses other charsets, missing boundaries, file parts and oversize bodies', () => {
    const status = (type: string, body: Uint8Array) => {
      const r = parseBody(type, body);
      return r.ok ? 0 : r.error.status;
    };
    expect(status('application/x-www-form-urlencoded; charset=iso-8859-1', enc.encode('a=b'))).toBe(
      415,
    );
    expect(status('multipart/form-data', enc.encode('--X--'))).toBe(400);
    expect(
      status(
        'multipart/form-data; boundary=X',
        enc.encode(
          '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhi\r\n--X--\r\n',
        ),
      ),
    ).toBe(415);
    expect(status('application/json', new Uint8Array(LIMITS.maxBodyBytes + 1))).toBe(413);
  });
});
