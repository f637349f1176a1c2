// Secret-dependent helpers: the salted hash that stands in for a client's IP address, and the
// service-role check guarding the `_deliver` route.
import { createHash } from 'node:crypto';
import { sameText } from '../_shared/constant-time.ts';

/**
 * The salt for IP hashes: FORMS_IP_SALT when set; otherwise one derived from the service-role key,
 * which is secret and differs per deployment, so hashes are never comparable across projects.
 */
export function ipSaltFromEnv(env: (name: string) => string | undefined): string {
  const salt = env('FORMS_IP_SALT');
  if (salt) return salt;
  return `derived:${env('SUPABASE_SERVICE_ROLE_KEY') ?? ''}`;
}

/**
 * Hex SHA-256 of salt and IP: enough to count a client, useless to recover its address. Hashed
 * in place (node:crypto): Web Crypto's digest is asynchronous and, on a busy worker, cost more
 * than the rest of a post's own work.
 */
export function hashIp(ip: string, salt: string): string {
  return createHash('sha256').update(`tinyback-ip:${salt}:${ip}`).digest('hex');
}

/**
 * True when `authorization` is `Bearer <key>` for one of the service keys: the legacy
 * SUPABASE_SERVICE_ROLE_KEY JWT or any of the new SUPABASE_SECRET_KEYS.
 */
export function isServiceKey(
  authorization: string | null,
  env: (name: string) => string | undefined,
): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!m) return false;
  const keys: string[] = [];
  const legacy = env('SUPABASE_SERVICE_ROLE_KEY');
  if (legacy) keys.push(legacy);
  try {
    const secretKeys = JSON.parse(env('SUPABASE_SECRET_KEYS') ?? '{}') as Record<string, unknown>;
    for (const value of Object.values(secretKeys))
      if (typeof value === 'string' && value) keys.push(value);
  } catch {
    // Not set or not JSON: only the legacy key counts.
  }
  let match = false;
  for (const key of keys) match = sameText(m[1], key) || match;
  return match;
}
