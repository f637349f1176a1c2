// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { hashIp, ipSaltFromEnv, isServiceKey } from './secrets.ts';

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

describe('secrets', () => {
  it('hashes IPs with the salt, never revealing them', async () => {
    const a = await hashIp('203.0.113.9', 's1');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toContain('203');
    expect(await hashIp('203.0.113.9', 's1')).toBe(a);
    expect(await hashIp('203.0.113.9', 's2')).not.toBe(a);
  });

  it('uses FORMS_IP_SALT, else a salt derived from the service key', () => {
    expect(ipSaltFromEnv(envOf({ FORMS_IP_SALT: 'x', SUPABASE_SERVICE_ROLE_KEY: 'k' }))).toBe('x');
    expect(ipSaltFromEnv(envOf({ SUPABASE_SERVICE_ROLE_KEY: 'k' }))).toBe('derived:k');
  });

  it('accepts only a service key as bearer', () => {
    const env = envOf({
      SUPABASE_SERVICE_ROLE_KEY: 'eyJservice',
      SUPABASE_SECRET_KEYS: '{"default":"sb_secret_1"}',
    });
    expect(isServiceKey('Bearer eyJservice', env)).toBe(true);
    expect(isServiceKey('Bearer sb_secret_1', env)).toBe(true);
    expect(isServiceKey('Bearer eyJservic', env)).toBe(false);
    expect(isServiceKey('eyJservice', env)).toBe(false);
    expect(isServiceKey(null, env)).toBe(false);
    expect(isServiceKey('Bearer ', envOf({}))).toBe(false);
  });
});
