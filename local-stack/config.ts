// Settings of the local stack: ports, well-known demo keys (the Supabase CLI's), paths, and the
// parts of supabase/config.toml the stand-in services honour.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { loadAuthMailTemplates, type AuthMailTemplates } from './auth/mail-templates.ts';
import { exposedSchemas, refuseUnsupportedAuth } from './config-checks.ts';
import { DEFAULT_FILE_SIZE_LIMIT, parseSizeLimit } from './storage/limits.ts';

export const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SUPABASE_DIR = path.join(PROJECT_DIR, 'supabase');

/** The Supabase CLI's local JWT secret and demo keys (public, development only). */
export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';
export const PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
export const SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';

/** The CLI's Kong maps the new-style keys to the demo JWTs before any service sees them. */
export function mapApiKey(key: string, keys: { anonKey: string; serviceRoleKey: string }): string {
  if (key === PUBLISHABLE_KEY) return keys.anonKey;
  if (key === SECRET_KEY) return keys.serviceRoleKey;
  return key;
}

export interface StackPorts {
  api: number; // gateway: /auth/v1 /rest/v1 /realtime/v1 /functions/v1
  db: number;
  mailWeb: number;
  smtp: number;
}

/** Supabase CLI's usual local ports. */
export const DEFAULT_PORTS: StackPorts = { api: 54321, db: 54322, mailWeb: 54324, smtp: 54325 };

export interface FunctionConfig {
  name: string;
  verifyJwt: boolean;
  entrypoint: string; // absolute path
  /** `enabled = false` keeps a function unserved, as with the Supabase CLI. */
  enabled?: boolean;
}

/** `[functions.*]` settings of the Supabase CLI that the local stack does not implement. */
const UNSUPPORTED_FUNCTION_SETTINGS = ['import_map', 'static_files'];

/**
 * `[auth.rate_limit]`: GoTrue's per-IP budgets per 5 minutes (bursts of up to 30). `email_sent`
 * is not read: the CLI applies it only with a custom `[auth.email.smtp]`.
 */
export interface AuthRateLimits {
  /** `token_refresh`: password sign-ins and refresh-token grants (`POST /token`). */
  tokenRefresh: number;
  /** `sign_in_sign_ups`: `POST /signup`, `POST /recover`, `POST /resend`, `PUT /user`. */
  signInSignUps: number;
  /** `token_verifications`: `GET`/`POST /verify`. */
  tokenVerifications: number;
}

/** The Supabase CLI's defaults (its config.toml template). */
const DEFAULT_RATE_LIMITS: AuthRateLimits = {
  tokenRefresh: 150,
  signInSignUps: 30,
  tokenVerifications: 30,
};

/** A Go duration as config.toml writes them ("1s", "60s", "1m30s", "500ms"), in milliseconds. */
export function parseGoDuration(text: string): number {
  const units: Record<string, number> = {
    ns: 1e-6,
    us: 1e-3,
    µs: 1e-3,
    ms: 1,
    s: 1e3,
    m: 6e4,
    h: 3.6e6,
  };
  const parts = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/.test(text)
    ? [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)]
    : null;
  if (!parts) throw new Error(`"${text}" is not a duration such as "1s" or "1m30s"`);
  return parts.reduce((ms, [, n, unit]) => ms + Number(n) * units[unit], 0);
}

export interface ProjectConfig {
  /** `[api] max_rows`: the most rows one REST read returns. */
  maxRows: number;
  /** `[api] schemas`: the schemas REST names as exposed (it serves `public` alone). */
  schemas: string[];
  auth: {
    siteUrl: string;
    additionalRedirectUrls: string[];
    jwtExpiry: number;
    minimumPasswordLength: number;
    enableSignup: boolean;
    enableConfirmations: boolean;
    refreshTokenReuseInterval: number;
    /** `[auth.email] double_confirm_changes`: an e-mail change mails the old address too. */
    doubleConfirmChanges: boolean;
    /** `[auth.email] max_frequency`: the least time between two mails of one kind to an address. */
    maxFrequencyMs: number;
    /**
     * `[auth.email] secure_password_change`: a password change on a session older than 24 hours
     * needs a reauthentication nonce (GoTrue's UpdatePasswordRequireReauthentication).
     */
    securePasswordChange: boolean;
    /** `[auth.email.template.*]`, `[auth.email.notification.*]`: Auth's own mails. */
    mailTemplates: AuthMailTemplates;
    rateLimit: AuthRateLimits;
  };
  functions: FunctionConfig[];
  seedPaths: string[];
  storage: {
    /** `[storage] file_size_limit` in bytes (the CLI's default: 50 MiB). */
    fileSizeLimit: number;
  };
}

type Table = Record<string, unknown>;
const table = (v: unknown): Table => (v && typeof v === 'object' ? (v as Table) : {});

/** `[storage] file_size_limit` (`"50MiB"`, `"20MB"` or bytes), else the CLI's 50 MiB. */
function storageFileSizeLimit(storage: Table): number {
  // The CLI creates these buckets (and uploads their objects_path) at start; the stand-in does not.
  if (Object.keys(table(storage.buckets)).length) {
    throw new Error(
      'supabase/config.toml: [storage.buckets] is not supported by the local stack (buckets are not seeded from config.toml; create them in supabase/seed.sql or with the service role)',
    );
  }
  if (storage.file_size_limit === undefined) return DEFAULT_FILE_SIZE_LIMIT;
  try {
    return parseSizeLimit(storage.file_size_limit);
  } catch (err) {
    throw new Error(`supabase/config.toml: [storage] file_size_limit: ${(err as Error).message}`);
  }
}

/** Reads supabase/config.toml (the same file the Supabase CLI reads). */
export function loadProjectConfig(supabaseDir = SUPABASE_DIR): ProjectConfig {
  const toml = table(parseToml(readFileSync(path.join(supabaseDir, 'config.toml'), 'utf8')));
  const maxRows = Number(table(toml.api).max_rows);
  const schemas = exposedSchemas(toml);
  refuseUnsupportedAuth(toml);
  const auth = table(toml.auth);
  const email = table(auth.email);
  const rateLimit = table(auth.rate_limit);
  const budget = (key: string, fallback: number) => {
    const value = rateLimit[key] ?? fallback;
    if (typeof value !== 'number' || !(value > 0))
      throw new Error(`supabase/config.toml: [auth.rate_limit] ${key} must be a positive number`);
    return value;
  };
  let maxFrequencyMs: number;
  try {
    maxFrequencyMs = parseGoDuration(String(email.max_frequency ?? '1s'));
  } catch (err) {
    throw new Error(`supabase/config.toml: [auth.email] max_frequency: ${(err as Error).message}`);
  }
  let mailTemplates: AuthMailTemplates;
  try {
    mailTemplates = loadAuthMailTemplates(email, supabaseDir);
  } catch (err) {
    throw new Error(`supabase/config.toml: ${(err as Error).message}`);
  }
  const db = table(toml.db);
  const seed = table(db.seed);
  const functionsTable = table(toml.functions);
  const functions: FunctionConfig[] = Object.entries(functionsTable).map(([name, raw]) => {
    const f = table(raw);
    for (const key of UNSUPPORTED_FUNCTION_SETTINGS) {
      if (key in f) {
        throw new Error(
          `supabase/config.toml: [functions.${name}] ${key} is not supported by the local stack ` +
            '(put a deno.json beside the function instead; see local-stack/README.md)',
        );
      }
    }
    const entry = typeof f.entrypoint === 'string' ? f.entrypoint : `./functions/${name}/index.ts`;
    return {
      name,
      verifyJwt: f.verify_jwt !== false,
      entrypoint: path.resolve(supabaseDir, entry),
      enabled: f.enabled !== false,
    };
  });
  const seedPaths = (Array.isArray(seed.sql_paths) ? seed.sql_paths : ['./seed.sql']).map((p) =>
    path.resolve(supabaseDir, String(p)),
  );
  return {
    // The CLI's default is 1000.
    maxRows: Number.isInteger(maxRows) && maxRows > 0 ? maxRows : 1000,
    schemas,
    auth: {
      siteUrl: String(auth.site_url ?? 'http://127.0.0.1:5173'),
      additionalRedirectUrls: (Array.isArray(auth.additional_redirect_urls)
        ? auth.additional_redirect_urls
        : []
      ).map(String),
      jwtExpiry: Number(auth.jwt_expiry ?? 3600),
      minimumPasswordLength: Number(auth.minimum_password_length ?? 6),
      enableSignup: auth.enable_signup !== false,
      enableConfirmations: email.enable_confirmations === true,
      refreshTokenReuseInterval: Number(auth.refresh_token_reuse_interval ?? 10),
      doubleConfirmChanges: email.double_confirm_changes !== false,
      maxFrequencyMs,
      securePasswordChange: email.secure_password_change === true,
      mailTemplates,
      rateLimit: {
        tokenRefresh: budget('token_refresh', DEFAULT_RATE_LIMITS.tokenRefresh),
        signInSignUps: budget('sign_in_sign_ups', DEFAULT_RATE_LIMITS.signInSignUps),
        tokenVerifications: budget('token_verifications', DEFAULT_RATE_LIMITS.tokenVerifications),
      },
    },
    functions,
    seedPaths: seed.enabled === false ? [] : seedPaths,
    storage: { fileSizeLimit: storageFileSizeLimit(table(toml.storage)) },
  };
}

/** Everything a service of the stack needs to know about where it runs. */
export interface StackSettings {
  ports: StackPorts;
  host: string; // 127.0.0.1
  apiUrl: string; // http://127.0.0.1:<api>
  dbUrl: string; // postgresql://postgres:postgres@127.0.0.1:<db>/postgres
  mailWebUrl: string;
  dataDir: string;
  supabaseDir: string;
  project: ProjectConfig;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Extra folders of Edge Functions served besides supabase/functions (test fixtures). */
  functionsDirs: string[];
  /** How often the stack calls the form endpoint's e-mail retries (pg_cron's job when hosted). */
  deliveryIntervalMs: number;
}

export function makeSettings(opts: {
  ports: StackPorts;
  dataDir: string;
  supabaseDir?: string;
  functionsDirs?: string[];
  deliveryIntervalMs?: number;
  /** Replaces `[auth.rate_limit]` budgets (test suites that sign up many users from one address). */
  authRateLimits?: Partial<AuthRateLimits>;
}): StackSettings {
  const host = '127.0.0.1';
  const supabaseDir = opts.supabaseDir ?? SUPABASE_DIR;
  const project = loadProjectConfig(supabaseDir);
  project.auth.rateLimit = { ...project.auth.rateLimit, ...opts.authRateLimits };
  return {
    ports: opts.ports,
    host,
    apiUrl: `http://${host}:${opts.ports.api}`,
    dbUrl: `postgresql://postgres:postgres@${host}:${opts.ports.db}/postgres`,
    mailWebUrl: `http://${host}:${opts.ports.mailWeb}`,
    dataDir: opts.dataDir,
    supabaseDir,
    project,
    jwtSecret: JWT_SECRET,
    anonKey: ANON_KEY,
    serviceRoleKey: SERVICE_ROLE_KEY,
    functionsDirs: (opts.functionsDirs ?? []).map((dir) => path.resolve(dir)),
    deliveryIntervalMs: opts.deliveryIntervalMs ?? 60_000,
  };
}
