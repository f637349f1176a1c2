// GoTrue's rate limits as the Auth stand-in keeps them: token buckets per client address and the
// per-address mail frequency.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AuthError } from './errors.ts';
import { AuthLimits, BURST, clientAddress, TokenBuckets } from './limits.ts';

const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('TokenBuckets', () => {
  it('allows a burst of 30, then refills at the configured rate per 5 minutes', () => {
    const buckets = new TokenBuckets(30); // one token every 10 s
    const t0 = 1_000_000;
    const taken = Array.from({ length: BURST + 1 }, () => buckets.take('a', t0));
    expect(taken.filter(Boolean)).toHaveLength(BURST);
    expect(taken[BURST]).toBe(false);
    expect(buckets.take('a', t0 + 9_000)).toBe(false);
    expect(buckets.take('a', t0 + 10_000)).toBe(true);
    expect(buckets.take('a', t0 + 10_000)).toBe(false);
    // Other keys have budgets of their own.
    expect(buckets.take('b', t0)).toBe(true);
  });

  it('keeps the burst at 30 even for larger budgets, as GoTrue does', () => {
    const buckets = new TokenBuckets(150);
    const taken = Array.from({ length: 40 }, () => buckets.take('a', 0));
    expect(taken.filter(Boolean)).toHaveLength(30);
  });
});

describe('clientAddress', () => {
  it('is the socket address, never a header the client writes', () => {
    expect(clientAddress(from('::ffff:10.0.0.7', { 'x-forwarded-for': '1.2.3.4' }))).toBe(
      '10.0.0.7',
    );
    expect(clientAddress(from('::1'))).toBe('::1');
  });
});

describe('AuthLimits', () => {
  const limits = () =>
    new AuthLimits({ tokenRefresh: 150, signInSignUps: 30, tokenVerifications: 30 }, 60_000);

  it('answers 429 over_request_rate_limit once an endpoint budget is spent', () => {
    const l = limits();
    for (let i = 0; i < 30; i++) l.spend('tokenVerifications', from('10.0.0.1'));
    expect(() => l.spend('tokenVerifications', from('10.0.0.1'))).toThrow(
      expect.objectContaining({ status: 429, code: 'over_request_rate_limit' }),
    );
    // Budgets are per endpoint kind and per address.
    expect(() => l.spend('signInSignUps', from('10.0.0.1'))).not.toThrow();
    expect(() => l.spend('tokenVerifications', from('10.0.0.2'))).not.toThrow();
  });

  it('answers 429 over_email_send_rate_limit within max_frequency, per address and kind', () => {
    const l = limits();
    l.mailRequested('recovery', 'A@example.com', 0);
    let refused: unknown;
    try {
      l.mailRequested('recovery', 'a@example.com', 15_500);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(AuthError);
    expect(refused).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'For security purposes, you can only request this after 44 seconds.',
    });
    expect(() => l.mailRequested('email_change', 'a@example.com', 15_500)).not.toThrow();
    expect(() => l.mailRequested('recovery', 'b@example.com', 15_500)).not.toThrow();
    expect(() => l.mailRequested('recovery', 'a@example.com', 60_000)).not.toThrow();
  });
});
