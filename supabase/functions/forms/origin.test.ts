// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { originAllowed, originOf, requestOrigin, safeNext, safeRedirectUrl } from './origin.ts';

describe('origin checks', () => {
  it('normalises origins', () => {
    expect(originOf('https://Example.COM:443/path?q')).toBe('https://example.com');
    expect(originOf('http://localhost:3000')).toBe('http://localhost:3000');
    expect(originOf('null')).toBeNull();
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });

  it('uses Origin, else the Referer origin', () => {
    expect(
      requestOrigin(new Headers({ origin: 'https://a.test', referer: 'https://b.test/x' })),
    ).toBe('https://a.test');
    expect(requestOrigin(new Headers({ referer: 'https://b.test/x' }))).toBe('https://b.test');
    expect(requestOrigin(new Headers({ origin: 'null', referer: 'https://b.test/x' }))).toBeNull();
    expect(requestOrigin(new Headers())).toBeNull();
  });

  it('allows only the exact origin', () => {
    const allowed = 'https://site.test';
    expect(originAllowed(new Headers({ origin: 'https://site.test' }), allowed)).toBe(true);
    expect(originAllowed(new Headers({ referer: 'https://site.test/contact' }), allowed)).toBe(
      true,
    );
    for (const o of [
      'http://site.test',
      'https://site.test:8443',
      'https://evil.site.test',
      'https://site.test.evil',
    ])
      expect(originAllowed(new Headers({ origin: o }), allowed)).toBe(false);
    expect(originAllowed(new Headers(), allowed)).toBe(false);
  });

  it('accepts _next only on the allowed origin', () => {
    expect(safeNext('https://site.test/thanks?x=1', 'https://site.test')).toBe(
      'https://site.test/thanks?x=1',
    );
    expect(safeNext('https://evil.test/', 'https://site.test')).toBeNull();
    expect(safeNext('/relative', 'https://site.test')).toBeNull();
    expect(safeNext('//evil.test/x', 'https://site.test')).toBeNull();
    expect(safeNext('https://user:pw@site.test/', 'https://site.test')).toBeNull();
    expect(safeNext(null, 'https://site.test')).toBeNull();
  });

  it("uses the form's thank-you page only when it is a plain http(s) URL", () => {
    expect(safeRedirectUrl('https://site.test/thanks?x=1#top')).toBe(
      'https://site.test/thanks?x=1#top',
    );
    expect(safeRedirectUrl('http://other.test')).toBe('http://other.test/');
    expect(safeRedirectUrl(null)).toBeNull();
    expect(safeRedirectUrl('')).toBeNull();
    expect(safeRedirectUrl('javascript:alert(1)')).toBeNull();
    expect(safeRedirectUrl('/thanks')).toBeNull();
    expect(safeRedirectUrl('https://user:pw@site.test/')).toBeNull();
  });
});
