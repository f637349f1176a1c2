// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { hashIp, ipSaltFromEnv, isServiceKey } from './secrets.ts';

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

describe('secrets', () => {
  it('hashes IPs with the salt, never revealing them', () => {
    const a = hashIp('203.0.113.9', 's1');
    // SHA-256 of "tinyback-ip:s1:203.0.113.9": the same hashes as before, so counts carry on.
    expect(a).toBe('f73f3e01c2b8ee5f76f0534253481a4be8bd0d8eabf376fa775eec2fffe06f95');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toContain('203');
    expect(hashIp('203.0.113.9', 's1')).toBe(a);
    expect(hashIp('203.0.113.9', 's2')).not.toBe(a);
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
