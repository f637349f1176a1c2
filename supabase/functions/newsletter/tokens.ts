// The secrets in the newsletter e-mail's links: 32 random bytes (256 bits, unguessable), written
// as base64url without padding (43 URL-safe characters). The database keeps only their SHA-256.

export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
