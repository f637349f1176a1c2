// HS256 JWTs signed with the project's JWT secret, as GoTrue issues and PostgREST/Realtime verify.
import { SignJWT, jwtVerify, errors } from 'jose';

export type Claims = Record<string, unknown> & { role?: string; sub?: string; exp?: number };

export async function signJwt(claims: Claims, secret: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

export type VerifyResult =
  | { ok: true; claims: Claims }
  | { ok: false; reason: 'expired' | 'malformed' | 'signature'; message: string };

export async function verifyJwt(token: string, secret: string): Promise<VerifyResult> {
  const parts = token.split('.');
  if (parts.length !== 3) {
    return {
      ok: false,
      reason: 'malformed',
      message: `Expected 3 parts in JWT; got ${parts.length}`,
    };
  }
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
    });
    return { ok: true, claims: payload as Claims };
  } catch (err) {
    if (err instanceof errors.JWTExpired)
      return { ok: false, reason: 'expired', message: 'JWT expired' };
    if (err instanceof errors.JWSSignatureVerificationFailed) {
      return { ok: false, reason: 'signature', message: 'JWT cryptographic operation failed' };
    }
    return { ok: false, reason: 'malformed', message: 'JWT cryptographic operation failed' };
  }
}
