// Reading an API key from the Authorization header and hashing it. Pure TypeScript with Web
// Crypto, shared by Deno and the unit tests.
import { API_KEYS } from '../_shared/limits.ts';

/** `tb_live_` and 64 lower-case hex characters, as create_api_key() writes them. */
const KEY = new RegExp(`^${API_KEYS.prefix}[0-9a-f]{${API_KEYS.randomBytes * 2}}$`);

/**
 * The key of `Authorization: Bearer <key>`, or null when the header is missing, too long or not a
 * key. Too long headers are refused before any parsing, so their size costs nothing.
 */
export function bearerKey(header: string | null): string | null {
  if (header === null || header.length > API_KEYS.maxAuthorizationLength) return null;
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m) return null;
  return KEY.test(m[1]) ? m[1] : null;
}

/** Hex SHA-256 of a key: what api_keys.key_hash holds. */
export async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
