// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { headerSafe } from '../_shared/header-safe.ts';
import {
  charLength,
  cleanFieldName,
  cleanValue,
  decodeUtf8,
  InvalidUtf8Error,
  isEmail,
} from './text.ts';

describe('text hygiene', () => {
  it('decodes valid UTF-8 and refuses invalid bytes', () => {
    expect(decodeUtf8(new TextEncoder().encode('Grüße ✓'))).toBe('Grüße ✓');
    expect(() => decodeUtf8(new Uint8Array([0x61, 0xff, 0x62]))).toThrow(InvalidUtf8Error);
    expect(() => decodeUtf8(new Uint8Array([0xc3]))).toThrow(InvalidUtf8Error); // truncated sequence
    expect(() => decodeUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toThrow(InvalidUtf8Error); // surrogate
  });

  it('trims, keeps newlines and tabs, removes other control characters', () => {
    expect(cleanValue('  a\tb\r\nc\rd\u0000e\u0007f\u001bg\u007fh\u0085i  ')).toBe(
      'a\tb\nc\ndefghi',
    );
    expect(cleanValue('\n\n x \n')).toBe('x');
    expect(cleanValue('\ud800lone')).toBe('lone');
    expect(cleanValue('emoji 😀')).toBe('emoji 😀');
  });

  it('counts characters as code points', () => {
    expect(charLength('😀😀')).toBe(2);
    expect(charLength('abc')).toBe(3);
  });

  it('accepts ordinary addresses and refuses others', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org', 'x_y@example.museum'])
      expect(isEmail(ok)).toBe(true);
    for (const bad of [
      '',
      'a',
      'a@b',
      'a@b.c',
      'a b@c.de',
      'a@@b.de',
      'a@b..de',
      'a@b.de\r\nBcc: x@y.de',
      '<a@b.de>',
      'a@b.de,c@d.de',
    ])
      expect(isEmail(bad)).toBe(false);
  });

  it('makes header values single-line', () => {
    expect(headerSafe('Hello\r\nBcc: victim@example.com')).toBe('Hello Bcc: victim@example.com');
    expect(headerSafe('a\nb\rc')).toBe('a b c');
  });

  it('keeps field names on one line, without any control character', () => {
    expect(cleanFieldName('multi\nline name')).toBe('multi line name');
    expect(cleanFieldName(' a\r\n\tb\u0000c\u007fd\u0085e\u2028f\u2029g ')).toBe('a b c d e f g');
    expect(cleanFieldName('\n\u2028')).toBe('');
    expect(cleanFieldName('Grüße 😀')).toBe('Grüße 😀');
  });
});
