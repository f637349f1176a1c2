// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { clientSaltFromEnv, hashClientKey } from './client-hash.ts';

describe('hashClientKey', () => {
  it('is a hex SHA-256 that depends on the key, the salt and the purpose', async () => {
    const a = await hashClientKey('198.51.100.7', 'salt', 'newsletter');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashClientKey('198.51.100.7', 'salt', 'newsletter')).toBe(a);
    expect(await hashClientKey('198.51.100.8', 'salt', 'newsletter')).not.toBe(a);
    expect(await hashClientKey('198.51.100.7', 'other', 'newsletter')).not.toBe(a);
    expect(await hashClientKey('198.51.100.7', 'salt', 'forms')).not.toBe(a);
  });
});

describe('clientSaltFromEnv', () => {
  it('takes FORMS_IP_SALT, else derives the salt from the service key', () => {
    const env = (vars: Record<string, string>) => (name: string) => vars[name];
    expect(clientSaltFromEnv(env({ FORMS_IP_SALT: 's', SUPABASE_SERVICE_ROLE_KEY: 'k' }))).toBe(
      's',
    );
    expect(clientSaltFromEnv(env({ SUPABASE_SERVICE_ROLE_KEY: 'k' }))).toBe('derived:k');
  });
});
