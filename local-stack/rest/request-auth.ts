// Who a request acts as: PostgREST reads the role from the bearer JWT (verified with the project
// secret) and falls back to the anonymous role when there is no token.
import type { IncomingMessage } from 'node:http';
import { bearerToken } from '../http.ts';
import { verifyJwt, type Claims } from '../jwt.ts';
import { RestError } from './errors.ts';

export const ANON_ROLE = 'anon';

export interface RequestIdentity {
  role: string;
  claims: Claims;
}

function jwtError(code: string, message: string): RestError {
  const description = message.replace(/"/g, "'");
  return new RestError(401, code, message, null, null, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });
}

/**
 * Tokens already verified, so the same session's requests skip the HMAC check (the largest cost
 * per request in a profile). Bounded; an entry is only reused before the token's `exp`.
 */
const verified = new Map<string, Claims>();
const VERIFIED_CAPACITY = 1000;

function cachedClaims(key: string): Claims | undefined {
  const claims = verified.get(key);
  if (!claims) return undefined;
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) {
    verified.delete(key);
    return undefined;
  }
  return claims;
}

function remember(key: string, claims: Claims) {
  if (verified.size >= VERIFIED_CAPACITY) {
    const oldest = verified.keys().next().value;
    if (oldest !== undefined) verified.delete(oldest);
  }
  verified.set(key, claims);
}

function roleOf(claims: Claims): string {
  return typeof claims.role === 'string' && claims.role ? claims.role : ANON_ROLE;
}

export async function identify(req: IncomingMessage, jwtSecret: string): Promise<RequestIdentity> {
  const token = bearerToken(req);
  if (!token) return { role: ANON_ROLE, claims: {} };
  const key = `${jwtSecret}\u0000${token}`;
  const known = cachedClaims(key);
  if (known) return { role: roleOf(known), claims: known };
  const result = await verifyJwt(token, jwtSecret);
  if (!result.ok) {
    if (result.reason === 'expired') throw jwtError('PGRST303', 'JWT expired');
    throw jwtError('PGRST301', result.message);
  }
  remember(key, result.claims);
  return { role: roleOf(result.claims), claims: result.claims };
}
