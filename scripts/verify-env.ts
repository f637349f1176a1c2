// Reads and checks the environment of `npm run verify`: which Supabase deployment the RLS, endpoint
// and realtime suites run against, and which optional checks that deployment can support. Shared by
// scripts/verify.ts (which refuses to start without the required variables) and the integration
// global setup (tests/setup/stack.ts), which provides the result to the suites instead of starting
// the local stack.

/** Set by `npm run verify` so that `npm test` never leaves the local stack by accident. */
export const VERIFY_TARGET_VARIABLE = 'VERIFY_TARGET';

/** The variables without which nothing can be verified, with what each one is. */
export const REQUIRED_VARIABLES = {
  SUPABASE_URL: 'the project URL (https://<ref>.supabase.co or your gateway)',
  SUPABASE_ANON_KEY: 'the anon key (or an sb_publishable_ key)',
  SUPABASE_SERVICE_ROLE_KEY: 'the service_role key (or an sb_secret_ key)',
  SUPABASE_DB_URL: 'a Postgres connection string of the postgres role',
} as const;

/** Optional variables: each one turns on the checks that need it. */
export const OPTIONAL_VARIABLES = {
  SITE_URL: "the forms function's SITE_URL secret: checks the redirects to /thanks and links",
  FORMS_PROXY_SECRET:
    "the forms function's FORMS_PROXY_SECRET: checks that a proxy naming its visitors is trusted",
  SUPABASE_JWT_SECRET: "the project's legacy JWT secret: checks Realtime with minted tokens",
  VERIFY_MAIL_URL:
    "a maildev-compatible catcher (GET /email) that receives the functions' mail: checks e-mails",
} as const;

export interface RemoteTarget {
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  dbUrl: string;
  siteUrl: string | null;
  proxySecret: string | null;
  jwtSecret: string | null;
  mailWebUrl: string | null;
}

export class VerifyEnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`cannot verify a deployment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'VerifyEnvError';
  }
}

type Env = Record<string, string | undefined>;

/** Is the integration setup asked to test a deployment rather than start the local stack? */
export const isRemoteTarget = (env: Env) => env[VERIFY_TARGET_VARIABLE]?.trim() === 'remote';

/** An http(s) URL without a trailing slash, or a problem. */
function httpUrl(name: string, raw: string, problems: string[]): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    if (url.search || url.hash) throw new Error('has a query or fragment');
    return raw.replace(/\/+$/, '');
  } catch {
    problems.push(`${name} must be an http(s) URL without query, e.g. https://<ref>.supabase.co`);
    return raw;
  }
}

/**
 * The deployment named by `env`; throws a VerifyEnvError listing every missing or malformed
 * variable (never only the first), so one run tells the user everything to fix.
 */
export function readRemoteTarget(env: Env): RemoteTarget {
  const problems: string[] = [];
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw ? raw : null;
  };
  for (const [name, what] of Object.entries(REQUIRED_VARIABLES)) {
    if (!value(name)) problems.push(`${name} is not set: ${what}`);
  }
  const apiUrl = value('SUPABASE_URL');
  const dbUrl = value('SUPABASE_DB_URL');
  const siteUrl = value('SITE_URL');
  const mailWebUrl = value('VERIFY_MAIL_URL');
  const target: RemoteTarget = {
    apiUrl: apiUrl ? httpUrl('SUPABASE_URL', apiUrl, problems) : '',
    anonKey: value('SUPABASE_ANON_KEY') ?? '',
    serviceRoleKey: value('SUPABASE_SERVICE_ROLE_KEY') ?? '',
    dbUrl: dbUrl ?? '',
    siteUrl: siteUrl ? httpUrl('SITE_URL', siteUrl, problems) : null,
    proxySecret: value('FORMS_PROXY_SECRET'),
    jwtSecret: value('SUPABASE_JWT_SECRET'),
    mailWebUrl: mailWebUrl ? httpUrl('VERIFY_MAIL_URL', mailWebUrl, problems) : null,
  };
  if (dbUrl && !/^postgres(ql)?:\/\//.test(dbUrl)) {
    problems.push('SUPABASE_DB_URL must be a postgresql:// connection string');
  }
  if (target.anonKey && target.anonKey === target.serviceRoleKey) {
    problems.push('SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are the same key');
  }
  if (target.anonKey.startsWith('sb_secret_')) {
    problems.push('SUPABASE_ANON_KEY is a secret key (sb_secret_…): give the anon key');
  }
  if (problems.length) throw new VerifyEnvError(problems);
  return target;
}

/** The connection string with its password replaced, for printing. */
export function redactDbUrl(dbUrl: string): string {
  try {
    const url = new URL(dbUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable connection string)';
  }
}
