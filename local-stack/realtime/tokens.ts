// Checks the JWTs Realtime receives: the socket's `apikey` at the handshake and each channel's
// `access_token`, with Supabase Realtime's error texts.
import { verifyJwt, type Claims } from '../jwt.ts';
import { mapApiKey } from '../config.ts';

export type TokenCheck =
  { ok: true; claims: Claims } | { ok: false; code: string; message: string };

export async function checkToken(
  token: string,
  secret: string,
  now = Date.now(),
): Promise<TokenCheck> {
  const verified = await verifyJwt(token, secret);
  if (!verified.ok) {
    if (verified.reason === 'expired') {
      const exp = decodeExp(token);
      const ago = exp === null ? 0 : Math.max(0, Math.floor(now / 1000) - exp);
      return {
        ok: false,
        code: 'InvalidJWTToken',
        message: `Token has expired ${ago} seconds ago`,
      };
    }
    if (verified.reason === 'signature') {
      return { ok: false, code: 'JwtSignatureError', message: 'Failed to validate JWT signature' };
    }
    return { ok: false, code: 'MalformedJWT', message: 'The token provided is not a valid JWT' };
  }
  const { claims } = verified;
  if (
    typeof claims.role !== 'string' ||
    typeof claims.exp !== 'number' ||
    !Number.isInteger(claims.exp)
  ) {
    return {
      ok: false,
      code: 'InvalidJWTToken',
      message: 'Fields `role` and `exp` are required in JWT',
    };
  }
  return { ok: true, claims };
}

function decodeExp(token: string): number | null {
  try {
    const payload = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as Claims;
    return typeof payload.exp === 'number' ? payload.exp : null;
  } catch {
    return null;
  }
}

/** The handshake's HTTP error for a missing or bad `apikey` (Realtime answers 401 with `{error}`). */
export async function checkApiKey(
  apikey: string | null,
  secret: string,
  keys: { anonKey: string; serviceRoleKey: string },
): Promise<
  { ok: true; token: string; claims: Claims } | { ok: false; status: number; error: string }
> {
  if (!apikey) return { ok: false, status: 401, error: 'API key is missing' };
  const token = mapApiKey(apikey, keys);
  const result = await checkToken(token, secret);
  if (!result.ok) {
    const error = result.message.startsWith('Token has expired')
      ? 'Token has expired'
      : result.message;
    return { ok: false, status: 401, error };
  }
  return { ok: true, token, claims: result.claims };
}
