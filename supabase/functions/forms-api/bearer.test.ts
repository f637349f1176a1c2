// @vitest-environment node
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEYS } from '../_shared/limits.ts';
import { bearerKey, hashKey } from './bearer.ts';

const KEY = `${API_KEYS.prefix}${'0123456789abcdef'.repeat(4)}`;

describe('bearerKey', () => {
  it('reads a well-formed key, whatever the scheme spelling', () => {
    expect(bearerKey(`Bearer ${KEY}`)).toBe(KEY);
    expect(bearerKey(`bearer ${KEY}`)).toBe(KEY);
  });

  it.each([
    ['no header', null],
    ['another scheme', `Basic ${KEY}`],
    ['no key', 'Bearer '],
    ['a JWT', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig'],
    ['a short key', `Bearer ${KEY.slice(0, -1)}`],
    ['upper-case hex', `Bearer ${KEY.toUpperCase()}`],
    ['two keys', `Bearer ${KEY} ${KEY}`],
    ['a key with a control character', `Bearer ${KEY}\u0000`],
    ['an oversized header', `Bearer ${KEY}${' '.repeat(API_KEYS.maxAuthorizationLength)}`],
  ])('refuses %s', (_label, header) => {
    expect(bearerKey(header)).toBeNull();
  });
});

describe('hashKey', () => {
  it('is the hex SHA-256 that create_api_key() stores', async () => {
    expect(await hashKey(KEY)).toBe(createHash('sha256').update(KEY).digest('hex'));
  });
});
