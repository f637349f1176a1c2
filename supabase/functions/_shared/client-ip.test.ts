// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  clientIp,
  clientIpWithSource,
  MIN_PROXY_SECRET_LENGTH,
  normalizeIp,
  PROXY_SECRET_HEADER,
  rateLimitKey,
} from './client-ip.ts';
import { sameText } from './constant-time.ts';

const SECRET = 'a'.repeat(MIN_PROXY_SECRET_LENGTH) + '-proxy-secret';
const headers = (xff: string, extra: Record<string, string> = {}) =>
  new Headers({ 'x-forwarded-for': xff, ...extra });

describe('clientIp', () => {
  it('takes the entry the gateway appended on a direct call, whatever the client wrote before it', () => {
    // The client sent `X-Forwarded-For: 6.6.6.6, 7.7.7.7`; the gateway appended 203.0.113.9.
    const forged = headers('6.6.6.6, 7.7.7.7, 203.0.113.9');
    expect(clientIpWithSource(forged)).toEqual({ ip: '203.0.113.9', source: 'gateway' });
    expect(clientIp(forged, { proxySecret: SECRET })).toBe('203.0.113.9');
    expect(clientIp(headers('203.0.113.9'))).toBe('203.0.113.9');
  });

  it('takes the entry the owner’s proxy appended when the request carries the proxy secret', () => {
    // Client → proxy (appends 198.51.100.7) → gateway (appends the proxy, 192.0.2.1).
    const proxied = headers('6.6.6.6, 198.51.100.7, 192.0.2.1', { [PROXY_SECRET_HEADER]: SECRET });
    expect(clientIpWithSource(proxied, { proxySecret: SECRET })).toEqual({
      ip: '198.51.100.7',
      source: 'proxy',
    });
  });

  it('ignores a wrong, missing or unconfigured proxy secret', () => {
    const xff = '6.6.6.6, 198.51.100.7, 192.0.2.1';
    const wrong = headers(xff, { [PROXY_SECRET_HEADER]: `${SECRET}x` });
    expect(clientIp(wrong, { proxySecret: SECRET })).toBe('192.0.2.1');
    expect(clientIp(headers(xff), { proxySecret: SECRET })).toBe('192.0.2.1');
    // A client guessing that no secret is configured gains nothing either.
    const empty = headers(xff, { [PROXY_SECRET_HEADER]: '' });
    expect(clientIp(empty, { proxySecret: '' })).toBe('192.0.2.1');
    expect(clientIp(empty, {})).toBe('192.0.2.1');
  });

  it('never trusts a secret too short to be safe', () => {
    const short = 'short-secret';
    const req = headers('6.6.6.6, 192.0.2.1', { [PROXY_SECRET_HEADER]: short });
    expect(clientIp(req, { proxySecret: short })).toBe('192.0.2.1');
  });

  it('falls back to the proxy’s own address when the proxy appended nothing', () => {
    const req = headers('192.0.2.1', { [PROXY_SECRET_HEADER]: SECRET });
    expect(clientIpWithSource(req, { proxySecret: SECRET })).toEqual({
      ip: '192.0.2.1',
      source: 'gateway',
    });
  });

  it('answers `unknown` without a usable entry', () => {
    expect(clientIp(new Headers())).toBe('unknown');
    expect(clientIp(headers(' , '))).toBe('unknown');
    expect(clientIp(headers('1.1.1.1, not-an-address'))).toBe('unknown');
  });

  it('normalises the address it returns', () => {
    expect(clientIp(headers('6.6.6.6, 2001:DB8::1'))).toBe('2001:db8:0:0:0:0:0:1');
    expect(clientIp(headers('::ffff:203.0.113.9'))).toBe('203.0.113.9');
  });
});

describe('normalizeIp', () => {
  it('spells each address one way', () => {
    expect(normalizeIp(' 203.0.113.9 ')).toBe('203.0.113.9');
    expect(normalizeIp('203.0.113.9:51234')).toBe('203.0.113.9');
    expect(normalizeIp('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(normalizeIp('2001:0DB8:0000::00ff')).toBe('2001:db8:0:0:0:0:0:ff');
    expect(normalizeIp('2001:db8:0:0:0:0:0:ff')).toBe('2001:db8:0:0:0:0:0:ff');
    expect(normalizeIp('[2001:db8::ff]:443')).toBe('2001:db8:0:0:0:0:0:ff');
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1');
    expect(normalizeIp('2001:db8::')).toBe('2001:db8:0:0:0:0:0:0');
    expect(normalizeIp('::')).toBe('0:0:0:0:0:0:0:0');
  });

  it('reads IPv4-mapped IPv6 addresses as IPv4, in either spelling', () => {
    expect(normalizeIp('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(normalizeIp('::FFFF:c633:6407')).toBe('198.51.100.7');
    expect(normalizeIp('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7');
    // Other embedded IPv4 forms are IPv6 addresses of their own.
    expect(normalizeIp('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0:0:0:c633:6407');
  });

  it('refuses what is not an address', () => {
    for (const bad of [
      '',
      'unknown',
      '256.1.1.1',
      '1.2.3',
      '1.2.3.4.5',
      '1.2.3.-4',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      ':::',
      '1:2:3:4:5:6:7:8::',
      '12345::1',
      '::ffff:1.2.3.256',
      'g::1',
      '[1.2.3.4',
    ]) {
      expect(normalizeIp(bad), bad).toBeNull();
    }
  });
});

describe('rateLimitKey', () => {
  it('counts an IPv6 client by its /64 network and an IPv4 client by its address', () => {
    const a = rateLimitKey(normalizeIp('2001:db8:aa:bb:1:2:3:4')!);
    const b = rateLimitKey(normalizeIp('2001:DB8:AA:BB::ffff:9')!);
    const otherNetwork = rateLimitKey(normalizeIp('2001:db8:aa:bc:1:2:3:4')!);
    expect(a).toBe('2001:db8:aa:bb::/64');
    expect(b).toBe(a);
    expect(otherNetwork).not.toBe(a);
    expect(rateLimitKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKey('203.0.113.10')).not.toBe(rateLimitKey('203.0.113.9'));
    expect(rateLimitKey(normalizeIp('::ffff:203.0.113.9')!)).toBe('203.0.113.9');
    expect(rateLimitKey('unknown')).toBe('unknown');
  });
});

describe('sameText', () => {
  it('is equality', () => {
    expect(sameText('abc', 'abc')).toBe(true);
    expect(sameText('abc', 'abd')).toBe(false);
    expect(sameText('abc', 'abcd')).toBe(false);
    expect(sameText('', '')).toBe(true);
  });
});
