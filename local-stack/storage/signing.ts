// Signed URL tokens: HS256 JWTs signed with the stack's own URL-signing secret, kept apart from the
// JWT secret as Supabase keeps its per-project URL-signing key apart from the Auth keys (rotating
// one never revokes the other). The secret is made once per data folder and kept in it, so signed
// URLs outlive a restart of the stack.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { errors } from './errors.ts';

export async function loadUrlSigningSecret(storageDir: string): Promise<Uint8Array> {
  const file = path.join(storageDir, 'url-signing-secret');
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing?.trim()) return new TextEncoder().encode(existing.trim());
  const secret = randomBytes(32).toString('base64url');
  await writeFile(file, secret, { mode: 0o600 });
  return new TextEncoder().encode(secret);
}

/** A signed download: the object's `bucket/key`. */
export interface DownloadClaims {
  url: string;
}

/** A signed upload: the object's `bucket/key`, who uploads it and whether it may overwrite. */
export interface UploadClaims {
  url: string;
  owner: string | undefined;
  upsert: boolean;
}

export async function signToken(
  claims: DownloadClaims | UploadClaims,
  secret: Uint8Array,
  expiresInSeconds: number,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secret);
}

/** The token's claims, when it is signed with the secret, unexpired and for `url`. */
export async function verifyToken(
  token: string | null,
  secret: Uint8Array,
  url: string,
): Promise<Record<string, unknown>> {
  if (!token) throw errors.invalidRequest("querystring must have required property 'token'");
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, secret, { algorithms: ['HS256'] }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw errors.expiredToken();
    throw errors.invalidJwt('Invalid JWT');
  }
  if (claims.url !== url)
    throw errors.invalidJwt('Invalid signature: the token is for another object');
  return claims;
}
