import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectConfig, makeSettings, parseGoDuration } from './config.ts';

const dirs: string[] = [];
function supabaseDir(toml: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'stack-config-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'config.toml'), toml);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('loadProjectConfig: [functions.*]', () => {
  it('reads verify_jwt, entrypoint and enabled', () => {
    const dir = supabaseDir(
      '[functions.forms]\nverify_jwt = false\nentrypoint = "./functions/forms/main.ts"\n' +
        '[functions.old]\nenabled = false\n',
    );
    expect(loadProjectConfig(dir).functions).toEqual([
      {
        name: 'forms',
        verifyJwt: false,
        entrypoint: path.join(dir, 'functions/forms/main.ts'),
        enabled: true,
      },
      {
        name: 'old',
        verifyJwt: true,
        entrypoint: path.join(dir, 'functions/old/index.ts'),
        enabled: false,
      },
    ]);
  });

  it('refuses the CLI settings the local stack does not implement instead of ignoring them', () => {
    for (const setting of ['import_map = "./import_map.json"', 'static_files = ["./x.html"]']) {
      expect(() => loadProjectConfig(supabaseDir(`[functions.forms]\n${setting}\n`))).toThrow(
        /\[functions\.forms\] (import_map|static_files) is not supported by the local stack/,
      );
    }
  });
});

describe('loadProjectConfig: [auth.rate_limit] and [auth.email]', () => {
  it("uses the CLI's defaults when config.toml leaves them out", () => {
    const auth = loadProjectConfig(supabaseDir('[auth]\n')).auth;
    expect(auth.rateLimit).toEqual({
      tokenRefresh: 150,
      signInSignUps: 30,
      tokenVerifications: 30,
    });
    expect(auth.maxFrequencyMs).toBe(1000);
    expect(auth.doubleConfirmChanges).toBe(true);
  });

  it('reads the budgets, max_frequency and double_confirm_changes', () => {
    const auth = loadProjectConfig(
      supabaseDir(
        '[auth.rate_limit]\nsign_in_sign_ups = 5\ntoken_verifications = 7\ntoken_refresh = 9\n' +
          '[auth.email]\nmax_frequency = "1m30s"\ndouble_confirm_changes = false\n',
      ),
    ).auth;
    expect(auth.rateLimit).toEqual({ tokenRefresh: 9, signInSignUps: 5, tokenVerifications: 7 });
    expect(auth.maxFrequencyMs).toBe(90_000);
    expect(auth.doubleConfirmChanges).toBe(false);
  });

  it('refuses budgets and durations it cannot use', () => {
    expect(() =>
      loadProjectConfig(supabaseDir('[auth.rate_limit]\nsign_in_sign_ups = 0\n')),
    ).toThrow('[auth.rate_limit] sign_in_sign_ups must be a positive number');
    expect(() => loadProjectConfig(supabaseDir('[auth.email]\nmax_frequency = "soon"\n'))).toThrow(
      '[auth.email] max_frequency',
    );
  });

  it('lets the stack replace budgets (test suites), keeping the others', () => {
    const settings = makeSettings({
      ports: { api: 1, db: 2, mailWeb: 3, smtp: 4 },
      dataDir: '/tmp/x',
      supabaseDir: supabaseDir('[auth]\n'),
      authRateLimits: { signInSignUps: 1000 },
    });
    expect(settings.project.auth.rateLimit).toEqual({
      tokenRefresh: 150,
      signInSignUps: 1000,
      tokenVerifications: 30,
    });
  });
});

describe('parseGoDuration', () => {
  it('reads the durations config.toml holds', () => {
    expect(parseGoDuration('1s')).toBe(1000);
    expect(parseGoDuration('60s')).toBe(60_000);
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('500ms')).toBe(500);
    expect(parseGoDuration('1h')).toBe(3_600_000);
    expect(() => parseGoDuration('10')).toThrow();
  });
});

describe('loadProjectConfig: settings Supabase reads that the stack does not implement', () => {
  it('reads [api] schemas (the CLI default when absent) and refuses any it cannot serve', () => {
    expect(loadProjectConfig(supabaseDir('[api]\n')).schemas).toEqual(['public', 'graphql_public']);
    expect(loadProjectConfig(supabaseDir('[api]\nschemas = ["public"]\n')).schemas).toEqual([
      'public',
    ]);
    expect(() => loadProjectConfig(supabaseDir('[api]\nschemas = ["public", "api"]\n'))).toThrow(
      /\[api\] schemas "api" is not supported by the local stack/,
    );
    expect(() => loadProjectConfig(supabaseDir('[api]\nschemas = ["graphql_public"]\n'))).toThrow(
      /the first schema must be public/,
    );
  });

  it('refuses anonymous sign-ins and asymmetric signing keys instead of ignoring them', () => {
    expect(() =>
      loadProjectConfig(supabaseDir('[auth]\nenable_anonymous_sign_ins = true\n')),
    ).toThrow(/\[auth\] enable_anonymous_sign_ins = true is not supported by the local stack/);
    expect(() =>
      loadProjectConfig(supabaseDir('[auth]\nsigning_keys_path = "./signing_keys.json"\n')),
    ).toThrow(/\[auth\] signing_keys_path is not supported by the local stack/);
    expect(() =>
      loadProjectConfig(supabaseDir('[auth]\nenable_anonymous_sign_ins = false\n')),
    ).not.toThrow();
  });
});

describe('loadProjectConfig: [storage]', () => {
  it("reads file_size_limit as the CLI writes it, else the CLI's 50 MiB", () => {
    expect(loadProjectConfig(supabaseDir('')).storage.fileSizeLimit).toBe(50 * 1024 * 1024);
    expect(
      loadProjectConfig(supabaseDir('[storage]\nfile_size_limit = "5MiB"\n')).storage.fileSizeLimit,
    ).toBe(5 * 1024 * 1024);
  });

  it('refuses a size it cannot read, and buckets it would not seed', () => {
    expect(() => loadProjectConfig(supabaseDir('[storage]\nfile_size_limit = "big"\n'))).toThrow(
      '[storage] file_size_limit: not a size: "big"',
    );
    expect(() =>
      loadProjectConfig(supabaseDir('[storage.buckets.avatars]\npublic = true\n')),
    ).toThrow('[storage.buckets] is not supported by the local stack');
  });
});
