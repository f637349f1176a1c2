// JWT checks at the socket handshake and on channel join.
// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { signJwt } from '../jwt.ts';
import { ANON_KEY, JWT_SECRET, PUBLISHABLE_KEY, SERVICE_ROLE_KEY } from '../config.ts';
import { checkApiKey, checkToken } from './tokens.ts';

const keys = { anonKey: ANON_KEY, serviceRoleKey: SERVICE_ROLE_KEY };
const now = () => Math.floor(Date.now() / 1000);

describe('checkApiKey', () => {
  it('accepts the demo keys and maps the publishable key to anon', async () => {
    const result = await checkApiKey(PUBLISHABLE_KEY, JWT_SECRET, keys);
    expect(result).toMatchObject({ ok: true, token: ANON_KEY, claims: { role: 'anon' } });
  });

  it('answers 401 with Realtime error texts', async () => {
    expect(await checkApiKey(null, JWT_SECRET, keys)).toEqual({
      ok: false,
      status: 401,
      error: 'API key is missing',
    });
    expect(await checkApiKey('abc', JWT_SECRET, keys)).toEqual({
      ok: false,
      status: 401,
      error: 'The token provided is not a valid JWT',
    });
    const expired = await signJwt({ role: 'anon', exp: now() - 10 }, JWT_SECRET);
    expect(await checkApiKey(expired, JWT_SECRET, keys)).toEqual({
      ok: false,
      status: 401,
      error: 'Token has expired',
    });
    const forged = await signJwt(
      { role: 'anon', exp: now() + 60 },
      'another-secret-that-is-at-least-32-chars',
    );
    expect(await checkApiKey(forged, JWT_SECRET, keys)).toEqual({
      ok: false,
      status: 401,
      error: 'Failed to validate JWT signature',
    });
  });
});

describe('checkToken', () => {
  it('requires role and exp claims', async () => {
    const noRole = await signJwt({ sub: 'x', exp: now() + 60 }, JWT_SECRET);
    expect(await checkToken(noRole, JWT_SECRET)).toEqual({
      ok: false,
      code: 'InvalidJWTToken',
      message: 'Fields `role` and `exp` are required in JWT',
    });
  });

  it('says how long ago an expired token expired', async () => {
    const token = await signJwt({ role: 'authenticated', exp: 1_000 }, JWT_SECRET);
    expect(await checkToken(token, JWT_SECRET, 1_060_000)).toEqual({
      ok: false,
      code: 'InvalidJWTToken',
      message: 'Token has expired 60 seconds ago',
    });
  });
});
