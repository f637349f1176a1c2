import { describe, expect, it } from 'vitest';
import {
  checkPublicKey,
  EnvError,
  LOCAL_SUPABASE_ANON_KEY,
  LOCAL_SUPABASE_URL,
  parseEnv,
} from './env-rules';

/** An unsigned-looking JWT with this payload (the rules read the payload, never the signature). */
function jwt(payload: unknown): string {
  const part = (value: unknown) => {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    return btoa(String.fromCharCode(...bytes))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
  };
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

// The real privileged key is refused at build time in scripts/site-build-env.test.ts; the browser
// code and its tests never hold it. Here a JWT with a privileged role stands in for it.
const PRIVILEGED_KEY = jwt({ iss: 'supabase-demo', role: 'supabase_admin' });
const hosted = (key: string) => ({
  MODE: 'production',
  VITE_SUPABASE_URL: 'https://abc.supabase.co',
  VITE_SUPABASE_ANON_KEY: key,
});

describe('parseEnv', () => {
  it('defaults to the local stack in development', () => {
    expect(parseEnv({ DEV: true })).toEqual({
      supabaseUrl: LOCAL_SUPABASE_URL,
      supabaseAnonKey: LOCAL_SUPABASE_ANON_KEY,
    });
  });
  it('requires both values in production', () => {
    expect(() => parseEnv({ MODE: 'production' })).toThrow(/VITE_SUPABASE_URL is not set/);
    expect(() =>
      parseEnv({ MODE: 'production', VITE_SUPABASE_URL: 'https://x.supabase.co' }),
    ).toThrow(/VITE_SUPABASE_ANON_KEY is not set/);
  });
  it('rejects malformed values', () => {
    expect(() => parseEnv({ VITE_SUPABASE_URL: 'not a url', VITE_SUPABASE_ANON_KEY: 'x' })).toThrow(
      /valid URL/,
    );
    expect(() =>
      parseEnv({ VITE_SUPABASE_URL: 'ftp://x.io', VITE_SUPABASE_ANON_KEY: 'x' }),
    ).toThrow(/http or https/);
    expect(() =>
      parseEnv({ VITE_SUPABASE_URL: 'https://x.supabase.co', VITE_SUPABASE_ANON_KEY: 'secret' }),
    ).toThrow(/JWT/);
  });
  it('accepts hosted values and trims a trailing slash', () => {
    expect(
      parseEnv({
        VITE_SUPABASE_URL: 'https://abc.supabase.co/',
        VITE_SUPABASE_ANON_KEY: 'sb_publishable_abc',
      }),
    ).toEqual({ supabaseUrl: 'https://abc.supabase.co', supabaseAnonKey: 'sb_publishable_abc' });
  });

  it('refuses a privileged key, a secret key and any JWT whose role is not anon', () => {
    expect(() => parseEnv(hosted(PRIVILEGED_KEY))).toThrow(EnvError);
    expect(() => parseEnv(hosted(PRIVILEGED_KEY))).toThrow(
      /VITE_SUPABASE_ANON_KEY has the "supabase_admin" role, not "anon".*only the anon key belongs there/,
    );
    expect(() => parseEnv(hosted('sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz'))).toThrow(
      /VITE_SUPABASE_ANON_KEY is a secret key \(sb_secret_…\)/,
    );
    expect(() => parseEnv(hosted(jwt({ role: 'authenticated', sub: 'u1' })))).toThrow(
      /has the "authenticated" role/,
    );
    expect(() => parseEnv(hosted(jwt({ iss: 'supabase' })))).toThrow(/names no role, not "anon"/);
    // Even in development, where a missing key falls back to the local stack's anon key.
    expect(() => parseEnv({ DEV: true, VITE_SUPABASE_ANON_KEY: PRIVILEGED_KEY })).toThrow(
      /supabase_admin/,
    );
  });

  it('refuses a JWT whose payload cannot be read', () => {
    expect(() => checkPublicKey('eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln')).toThrow(
      /not a readable JWT/,
    );
    expect(() => checkPublicKey(`eyJhbGciOiJIUzI1NiJ9.${btoa('[1]')}.c2ln`)).toThrow(
      /not a readable JWT/,
    );
  });

  it('accepts the anon key and publishable keys', () => {
    expect(parseEnv(hosted(LOCAL_SUPABASE_ANON_KEY)).supabaseAnonKey).toBe(LOCAL_SUPABASE_ANON_KEY);
    const anon = jwt({ role: 'anon', ref: 'abc', note: 'ünïcode' });
    expect(parseEnv(hosted(anon)).supabaseAnonKey).toBe(anon);
    expect(() => checkPublicKey('sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH')).not.toThrow();
  });
});
