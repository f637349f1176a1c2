// `npm run build` must fail, with the rule's own message, when the site would ship without its
// Supabase settings or with a key that must never reach a browser (src/config/env-rules.ts,
// applied by vite.config.ts). Resolving the config runs that check without building anything.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NAMES = ['VITE_SUPABASE_URL', 'VITE_SUPABASE_ANON_KEY'] as const;
const saved = Object.fromEntries([...NAMES, 'NODE_ENV'].map((n) => [n, process.env[n]]));

afterEach(() => {
  for (const name of [...NAMES, 'NODE_ENV']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** Resolves vite.config.ts as `vite build` (or `vite` for 'serve') does, with these settings. */
function resolveWith(values: Partial<Record<(typeof NAMES)[number], string>>, command = 'build') {
  for (const name of NAMES) {
    const value = values[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  // `vite build` runs with NODE_ENV=production (Vitest sets `test`, which Vite reads as DEV).
  process.env.NODE_ENV = command === 'build' ? 'production' : 'development';
  return resolveConfig(
    {
      root,
      configFile: path.join(root, 'vite.config.ts'),
      // No .env files: only the values given here count.
      envDir: path.join(root, 'scripts', 'no-env-files'),
      logLevel: 'silent',
    },
    command as 'build' | 'serve',
    // The default modes of `vite build` and `vite`.
    command === 'build' ? 'production' : 'development',
  );
}

const URL = 'https://abc.supabase.co';
const ANON =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
const SERVICE_ROLE =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

describe('the production build', () => {
  it('fails on the service-role key or a secret key in VITE_SUPABASE_ANON_KEY', async () => {
    await expect(
      resolveWith({ VITE_SUPABASE_URL: URL, VITE_SUPABASE_ANON_KEY: SERVICE_ROLE }),
    ).rejects.toThrow(/VITE_SUPABASE_ANON_KEY has the "service_role" role, not "anon"/);
    await expect(
      resolveWith({
        VITE_SUPABASE_URL: URL,
        VITE_SUPABASE_ANON_KEY: 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz',
      }),
    ).rejects.toThrow(/VITE_SUPABASE_ANON_KEY is a secret key/);
  });

  it('fails without its Supabase settings instead of building a blank page', async () => {
    await expect(resolveWith({})).rejects.toThrow(/VITE_SUPABASE_URL is not set/);
    await expect(resolveWith({ VITE_SUPABASE_URL: URL })).rejects.toThrow(
      /VITE_SUPABASE_ANON_KEY is not set/,
    );
  });

  it('goes ahead with the anon key; the dev server needs no settings', async () => {
    await expect(
      resolveWith({ VITE_SUPABASE_URL: URL, VITE_SUPABASE_ANON_KEY: ANON }),
    ).resolves.toBeTruthy();
    await expect(resolveWith({}, 'serve')).resolves.toBeTruthy();
  });

  it('hands the page the checked values, normalised, and the dev server the local stack', async () => {
    const built = await resolveWith({ VITE_SUPABASE_URL: `${URL}/`, VITE_SUPABASE_ANON_KEY: ANON });
    expect(JSON.parse(String(built.define?.__SITE_ENV__))).toEqual({
      supabaseUrl: URL,
      supabaseAnonKey: ANON,
    });
    const served = await resolveWith({}, 'serve');
    expect(JSON.parse(String(served.define?.__SITE_ENV__))).toMatchObject({
      supabaseUrl: 'http://127.0.0.1:54321',
    });
  });
});
