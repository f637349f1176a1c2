// The salted hash a function stores instead of a client's address (see client-ip.ts for which
// address and its rate-limit key). Pure code (Web Crypto only), shared by functions.

const hex = (buf: ArrayBuffer) =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The salt: FORMS_IP_SALT when set; otherwise one derived from the service-role key, which is
 * secret and differs per deployment, so hashes are never comparable across projects.
 */
export function clientSaltFromEnv(env: (name: string) => string | undefined): string {
  const salt = env('FORMS_IP_SALT');
  if (salt) return salt;
  return `derived:${env('SUPABASE_SERVICE_ROLE_KEY') ?? ''}`;
}

/**
 * Hex SHA-256 of purpose, salt and key: enough to count a client, useless to find it. The purpose
 * keeps one function's hashes from matching another's.
 */
export async function hashClientKey(key: string, salt: string, purpose: string): Promise<string> {
  const bytes = new TextEncoder().encode(`tinyback-${purpose}:${salt}:${key}`);
  return hex(await crypto.subtle.digest('SHA-256', bytes));
}
