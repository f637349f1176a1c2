// The environment a function's Deno process gets: what the Supabase CLI gives edge functions
// (SUPABASE_* and supabase/functions/.env), the stack's extras, and what Deno needs to fetch npm.
import path from 'node:path';
import type { StackSettings } from '../config.ts';
import { readDotenv } from './dotenv.ts';

// From the host only what Deno needs to reach the npm registry and behave normally.
const HOST_VARIABLES =
  /^(PATH|HOME|TMPDIR|LANG|LC_ALL|TZ|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|NPM_CONFIG_REGISTRY|SSL_CERT_(FILE|DIR)|NODE_EXTRA_CA_CERTS|DENO_(CERT|TLS_CA_STORE|AUTH_TOKENS))$/;

export function functionEnvironment(opts: {
  settings: StackSettings;
  functionsDir: string;
  extraEnv: Record<string, string>;
  log: (message: string) => void;
}): Record<string, string> {
  const { settings, functionsDir, extraEnv, log } = opts;
  const supabase = {
    SUPABASE_URL: settings.apiUrl,
    SUPABASE_ANON_KEY: settings.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: settings.serviceRoleKey,
    SUPABASE_DB_URL: settings.dbUrl,
  };
  const host = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => HOST_VARIABLES.test(e[0]) && e[1] !== undefined,
    ),
  );
  const projectEnvFile = path.join(settings.supabaseDir, 'functions', '.env');
  const files = [projectEnvFile, path.join(functionsDir, '.env')].filter(
    (f, i, all) => all.indexOf(f) === i,
  );
  const fromFiles: Record<string, string> = {};
  for (const file of files) {
    for (const [key, value] of Object.entries(readDotenv(file))) {
      // Like the CLI: SUPABASE_* names are reserved for the platform's own values.
      if (key.startsWith('SUPABASE_'))
        log(`${file}: env name cannot start with SUPABASE_, skipping ${key}`);
      else fromFiles[key] = value;
    }
  }
  return { ...host, ...extraEnv, ...fromFiles, ...supabase };
}
