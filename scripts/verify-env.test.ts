// `npm run verify` reads its target from the environment: it refuses to start without the four
// required variables (naming every missing one), rejects malformed values, turns each optional
// check on only when its variable is given, and never goes remote unless VERIFY_TARGET=remote.
import { describe, expect, it } from 'vitest';
import {
  isRemoteTarget,
  readRemoteTarget,
  redactDbUrl,
  REQUIRED_VARIABLES,
  VerifyEnvError,
} from './verify-env.ts';

const complete = {
  SUPABASE_URL: 'https://abcdefgh.supabase.co/',
  SUPABASE_ANON_KEY: 'anon-key',
  SUPABASE_SERVICE_ROLE_KEY: 'service-key',
  SUPABASE_DB_URL: 'postgresql://postgres:pw@db.abcdefgh.supabase.co:5432/postgres',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    readRemoteTarget(env);
  } catch (err) {
    expect(err).toBeInstanceOf(VerifyEnvError);
    return (err as VerifyEnvError).problems;
  }
  throw new Error('the environment was accepted');
}

describe('readRemoteTarget', () => {
  it('reads a complete environment, without a trailing slash and with optional checks off', () => {
    expect(readRemoteTarget(complete)).toEqual({
      apiUrl: 'https://abcdefgh.supabase.co',
      anonKey: 'anon-key',
      serviceRoleKey: 'service-key',
      dbUrl: complete.SUPABASE_DB_URL,
      siteUrl: null,
      proxySecret: null,
      jwtSecret: null,
      mailWebUrl: null,
    });
  });

  it('names every missing required variable at once', () => {
    const problems = problemsOf({});
    expect(problems).toHaveLength(Object.keys(REQUIRED_VARIABLES).length);
    for (const name of Object.keys(REQUIRED_VARIABLES)) {
      expect(problems.some((p) => p.startsWith(`${name} is not set`))).toBe(true);
    }
  });

  it.each(Object.keys(REQUIRED_VARIABLES))(
    'refuses to run without %s (or with it blank)',
    (name) => {
      expect(problemsOf({ ...complete, [name]: undefined })).toEqual([
        expect.stringMatching(new RegExp(`^${name} is not set`)),
      ]);
      expect(problemsOf({ ...complete, [name]: '   ' })).toHaveLength(1);
    },
  );

  it('rejects malformed values', () => {
    expect(problemsOf({ ...complete, SUPABASE_URL: 'abcdefgh.supabase.co' })).toEqual([
      expect.stringContaining('SUPABASE_URL must be an http(s) URL'),
    ]);
    expect(problemsOf({ ...complete, SUPABASE_DB_URL: 'mysql://db' })).toEqual([
      expect.stringContaining('SUPABASE_DB_URL must be a postgresql://'),
    ]);
    expect(problemsOf({ ...complete, SUPABASE_SERVICE_ROLE_KEY: 'anon-key' })).toEqual([
      expect.stringContaining('are the same key'),
    ]);
    expect(problemsOf({ ...complete, SUPABASE_ANON_KEY: 'sb_secret_abc' })).toEqual([
      expect.stringContaining('is a secret key'),
    ]);
    expect(problemsOf({ ...complete, SITE_URL: 'ftp://site' })).toEqual([
      expect.stringContaining('SITE_URL must be an http(s) URL'),
    ]);
  });

  it('turns the optional checks on with their variables', () => {
    expect(
      readRemoteTarget({
        ...complete,
        SITE_URL: 'https://forms.example.org/',
        FORMS_PROXY_SECRET: ' s3cret ',
        SUPABASE_JWT_SECRET: 'jwt',
        VERIFY_MAIL_URL: 'http://mail.internal:1080',
      }),
    ).toMatchObject({
      siteUrl: 'https://forms.example.org',
      proxySecret: 's3cret',
      jwtSecret: 'jwt',
      mailWebUrl: 'http://mail.internal:1080',
    });
  });
});

describe('isRemoteTarget', () => {
  it('holds only for VERIFY_TARGET=remote, never because SUPABASE_URL happens to be set', () => {
    expect(isRemoteTarget({ VERIFY_TARGET: 'remote' })).toBe(true);
    expect(isRemoteTarget({ ...complete })).toBe(false);
    expect(isRemoteTarget({ VERIFY_TARGET: 'local' })).toBe(false);
  });
});

describe('redactDbUrl', () => {
  it('hides the password', () => {
    expect(redactDbUrl(complete.SUPABASE_DB_URL)).toBe(
      'postgresql://postgres:***@db.abcdefgh.supabase.co:5432/postgres',
    );
    expect(redactDbUrl('not a url')).toBe('(unparseable connection string)');
  });
});
