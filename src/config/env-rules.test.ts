import { describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE_ANON_KEY, LOCAL_SUPABASE_URL, parseEnv } from './env';

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
});
