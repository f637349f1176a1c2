import { describe, expect, it } from 'vitest';
import { isValidOrigin, normalizeOrigin, originProblem } from './normalize-origin';

describe('normalizeOrigin', () => {
  it('trims, lower-cases and removes one trailing slash, as the database trigger does', () => {
    expect(normalizeOrigin('  https://Example.COM/ ')).toBe('https://example.com');
    expect(normalizeOrigin('http://LOCALHOST:5173')).toBe('http://localhost:5173');
    expect(normalizeOrigin('https://example.com//')).toBe('https://example.com/');
    expect(normalizeOrigin('')).toBe('');
  });
});

describe('isValidOrigin', () => {
  it.each([
    'https://example.com',
    'http://localhost',
    'http://localhost:5173',
    'https://www.sub.example.co.uk',
    'https://xn--bcher-kva.example',
    'http://127.0.0.1:8080',
    'https://[::1]:8443',
    'https://example.com:65535',
  ])('accepts %s', (origin) => {
    expect(isValidOrigin(origin)).toBe(true);
  });

  it.each([
    'example.com',
    'ftp://example.com',
    'https://',
    'https://example.com/',
    'https://example.com/contact',
    'https://example.com?x=1',
    'https://example.com#top',
    'https://user@example.com',
    'https://-example.com',
    'https://exa_mple.com',
    'https://example.com:0',
    'https://example.com:65536',
    'https://Example.com',
    `https://${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`,
  ])('refuses %s', (origin) => {
    expect(isValidOrigin(origin)).toBe(false);
  });
});

describe('originProblem', () => {
  it('is null for a valid origin', () => {
    expect(originProblem('https://example.com')).toBeNull();
  });

  it('says what to change', () => {
    expect(originProblem('example.com')).toMatch(/^Start with https:\/\//);
    expect(originProblem('ftp://example.com')).toMatch(/http:\/\/ or https:\/\//);
    expect(originProblem('https://example.com/contact')).toMatch(/leave out the path/);
    expect(originProblem('https://example.com?ref=1')).toMatch(/leave out the path/);
    expect(originProblem('https://me@example.com')).toMatch(/user name/);
    expect(originProblem('https://exa_mple.com')).toMatch(/scheme, host and an optional port/);
    expect(originProblem(`https://${'a'.repeat(300)}.com`)).toMatch(/at most 300/);
  });
});
