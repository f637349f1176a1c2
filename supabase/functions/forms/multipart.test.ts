// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { multipartBoundary, parseMultipart } from './multipart.ts';

const enc = new TextEncoder();
const body = (s: string) => enc.encode(s.replace(/\n/g, '\r\n'));

describe('multipart reader', () => {
  it('reads the boundary parameter, quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('multipart/form-data')).toBeNull();
  });

  it('reads text fields in order, including empty and multi-line values', () => {
    const b = body(
      '--X\nContent-Disposition: form-data; name="name"\n\nAda\n' +
        '--X\nContent-Disposition: form-data; name="empty"\n\n\n' +
        '--X\nContent-Disposition: form-data; name="message"\nContent-Type: text/plain; charset=utf-8\n\nline 1\nline 2\n' +
        '--X--\n',
    );
    expect(parseMultipart(b, 'X')).toEqual({
      ok: true,
      fields: [
        ['name', 'Ada'],
        ['empty', ''],
        ['message', 'line 1\r\nline 2'],
      ],
    });
  });

  it('refuses file parts', () => {
    const b = body(
      '--X\nContent-Disposition: form-data; name="cv"; filename="cv.pdf"\nContent-Type: application/pdf\n\n%PDF\n--X--\n',
    );
    expect(parseMultipart(b, 'X')).toEqual({ ok: false, reason: 'file' });
  });

  it('refuses truncated and malformed bodies', () => {
    const cases = [
      '--X\nContent-Disposition: form-data; name="a"\n\nvalue',
      '--X\nContent-Disposition: form-data; name="a"\n',
      'preamble\n--X\nContent-Disposition: form-data; name="a"\n\nv\n--X--',
      '--X\nContent-Disposition: attachment; name="a"\n\nv\n--X--',
      '--X\nContent-Disposition: form-data\n\nv\n--X--',
      '--X\nno colon here\n\nv\n--X--',
      '--Xjunk',
      '',
    ];
    for (const c of cases)
      expect(parseMultipart(body(c), 'X')).toEqual({ ok: false, reason: 'malformed' });
  });
});
