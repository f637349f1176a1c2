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

export async function identify(req: IncomingMessage, jwtSecret: string): Promise<RequestIdentity> {
  const token = bearerToken(req);
  if (!token) return { role: ANON_ROLE, claims: {} };
  const result = await verifyJwt(token, jwtSecret);
  if (!result.ok) {
    if (result.reason === 'expired') throw jwtError('PGRST303', 'JWT expired');
    throw jwtError('PGRST301', result.message);
  }
  const role =
    typeof result.claims.role === 'string' && result.claims.role ? result.claims.role : ANON_ROLE;
  return { role, claims: result.claims };
}
