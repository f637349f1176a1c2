// Which redirect_to values the Auth stand-in honours.
import { describe, expect, it } from 'vitest';
import { resolveRedirect } from './redirect.ts';

const auth = {
  siteUrl: 'http://127.0.0.1:5173',
  additionalRedirectUrls: ['http://localhost:5173', 'https://*.example.com/**'],
  jwtExpiry: 3600,
  minimumPasswordLength: 6,
  enableSignup: true,
  enableConfirmations: false,
  refreshTokenReuseInterval: 10,
};

describe('resolveRedirect', () => {
  it('falls back to the site URL when nothing or something unusable is asked for', () => {
    expect(resolveRedirect(null, auth)).toBe(auth.siteUrl);
    expect(resolveRedirect('not a url', auth)).toBe(auth.siteUrl);
    expect(resolveRedirect('javascript:alert(1)', auth)).toBe(auth.siteUrl);
    expect(resolveRedirect('https://evil.test/reset', auth)).toBe(auth.siteUrl);
  });

  it("accepts the site URL's host and paths below allowed URLs", () => {
    expect(resolveRedirect('http://127.0.0.1:5173/reset-password', auth)).toBe(
      'http://127.0.0.1:5173/reset-password',
    );
    expect(resolveRedirect('http://localhost:5173/reset', auth)).toBe(
      'http://localhost:5173/reset',
    );
    expect(resolveRedirect('http://localhost:5173.evil.test/', auth)).toBe(auth.siteUrl);
  });

  it('matches globs: * within a segment, ** across segments', () => {
    expect(resolveRedirect('https://app.example.com/a/b', auth)).toBe(
      'https://app.example.com/a/b',
    );
    expect(resolveRedirect('https://a.b.example.com/x', auth)).toBe(auth.siteUrl);
  });
});
