// `npm run verify`: runs the RLS, form endpoint and Realtime suites against a Supabase deployment
// named in the environment (hosted or self-hosted) instead of the local stack, so a self-hoster can
// prove their own deployment behaves (its Auth included: a fresh sign-up must wait for its e-mail
// to be confirmed, tests/rls/sign-up-confirmation.test.ts). It checks the environment, says what it will run against and
// what it will skip, checks that the API and the database answer, then runs the suites with
// VERIFY_TARGET=remote (tests/setup/stack.ts then provides the deployment to them). Words after
// `--` pick suite files by name (`npm run verify -- newsletter`); options go to Vitest as they are
// (`npm run verify -- -t "rate-limits"`).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  OPTIONAL_VARIABLES,
  readRemoteTarget,
  redactDbUrl,
  VERIFY_TARGET_VARIABLE,
  VerifyEnvError,
  type RemoteTarget,
} from './verify-env.ts';
import { TEST_ADDRESS_PATTERN } from '../tests/setup/remote.ts';

const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What runs against the deployment: folders (their *.test.ts files) and files. */
const SUITES = ['tests/rls', 'tests/endpoint', 'tests/conformance/realtime.test.ts'];

/** Files under SUITES that never run against a deployment, and why. */
const NOT_RUN: Record<string, string> = {
  'tests/endpoint/flood.test.ts':
    'its clients post through the local gateway’s /api/forms rewrite (yours is on your site’s host)',
  'tests/endpoint/webhooks.test.ts':
    'its receiver listens on this machine, which a deployment’s function cannot reach',
};

const say = (line = '') => process.stdout.write(`${line}\n`);

/**
 * The test files of SUITES, less NOT_RUN, named one by one: Vitest's `--exclude` does not reach a
 * project that sets its own `exclude`, as the integration project does.
 */
function suiteFiles(projectDir = PROJECT_DIR): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    if (statSync(path.join(projectDir, rel)).isFile()) return void files.push(rel);
    for (const entry of readdirSync(path.join(projectDir, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.test.ts')) files.push(child);
    }
  };
  for (const suite of SUITES) walk(suite);
  return files.filter((file) => !(file in NOT_RUN)).sort();
}

function describeTarget(target: RemoteTarget): void {
  say(`verify: running against ${target.apiUrl}`);
  say(`        database ${redactDbUrl(target.dbUrl)}`);
  const given: Record<keyof typeof OPTIONAL_VARIABLES, boolean> = {
    SITE_URL: target.siteUrl !== null,
    FORMS_PROXY_SECRET: target.proxySecret !== null,
    SUPABASE_JWT_SECRET: target.jwtSecret !== null,
    VERIFY_MAIL_URL: target.mailWebUrl !== null,
  };
  for (const [name, what] of Object.entries(OPTIONAL_VARIABLES)) {
    const on = given[name as keyof typeof given];
    say(`        ${on ? 'set    ' : 'not set'} ${name}: ${what}${on ? '' : ' (skipped)'}`);
  }
  say(`verify: runs ${SUITES.join(', ')}`);
  for (const [file, why] of Object.entries(NOT_RUN)) say(`        not run: ${file}: ${why}`);
  say(
    'verify: it creates test users, forms, messages and newsletter addresses at example.test (a\n' +
      '        reserved domain) and removes them before and after the run; it resets the rate-limit\n' +
      '        counters, creates and drops scratch tables public.rt_*, and the functions send their\n' +
      '        e-mails to example.test addresses through your mail provider (they cannot arrive).\n' +
      '        One address signs up through Auth, to check that sign-ups wait for their e-mail to be\n' +
      '        confirmed (tests/rls/sign-up-confirmation.test.ts): Auth mails it a confirmation link.\n' +
      '        Never point it at a production database with real users unless you accept this.',
  );
}

/** Fails early, with a clear message, when the API or the database does not answer as expected. */
async function preflight(target: RemoteTarget): Promise<void> {
  const health = await fetch(`${target.apiUrl}/auth/v1/health`, {
    headers: { apikey: target.anonKey },
    signal: AbortSignal.timeout(15_000),
  }).catch((err: Error) => {
    throw new Error(`the API at ${target.apiUrl} does not answer: ${err.message}`);
  });
  if (!health.ok) {
    throw new Error(
      `GET ${target.apiUrl}/auth/v1/health answered ${health.status}: check SUPABASE_URL and SUPABASE_ANON_KEY`,
    );
  }
  const client = new pg.Client({ connectionString: target.dbUrl, connectionTimeoutMillis: 15_000 });
  await client.connect().catch((err: Error) => {
    throw new Error(`the database does not accept the connection: ${err.message}`);
  });
  try {
    const { rows } = await client.query<{ forms: string | null; others: number }>(
      `select to_regclass('public.forms')::text as forms,
              (select count(*)::int from auth.users where email !~* $1) as others`,
      [TEST_ADDRESS_PATTERN],
    );
    if (!rows[0]!.forms) {
      throw new Error('the database has no public.forms: apply the migrations (supabase db push)');
    }
    if (rows[0]!.others > 0) {
      say(`verify: the database has ${rows[0]!.others} other user(s); their rows are not touched`);
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  let target: RemoteTarget;
  try {
    target = readRemoteTarget(process.env);
  } catch (err) {
    if (!(err instanceof VerifyEnvError)) throw err;
    process.stderr.write(
      `verify: ${err.message}\n` +
        'Set them in the environment, e.g.\n' +
        '  SUPABASE_URL=https://<ref>.supabase.co SUPABASE_ANON_KEY=… SUPABASE_SERVICE_ROLE_KEY=… \\\n' +
        '  SUPABASE_DB_URL=postgresql://postgres:…@db.<ref>.supabase.co:5432/postgres npm run verify\n' +
        'See "Verify your deployment" in README.md.\n',
    );
    return 2;
  }
  describeTarget(target);
  try {
    await preflight(target);
  } catch (err) {
    process.stderr.write(`verify: ${(err as Error).message}\n`);
    return 2;
  }
  const vitest = path.join(PROJECT_DIR, 'node_modules', '.bin', 'vitest');
  // Words narrow the files (`npm run verify -- newsletter`); options go to Vitest as they are.
  const extra = process.argv.slice(2);
  const words = extra.filter((arg) => !arg.startsWith('-'));
  const files = suiteFiles().filter((f) => !words.length || words.some((w) => f.includes(w)));
  if (!files.length) {
    process.stderr.write(`verify: no suite file matches ${words.join(', ')}\n`);
    return 2;
  }
  const options = extra.filter((arg) => arg.startsWith('-'));
  const args = ['run', '--project', 'integration', '--reporter', 'verbose', ...files, ...options];
  return new Promise((resolve) => {
    const child = spawn(vitest, args, {
      cwd: PROJECT_DIR,
      stdio: 'inherit',
      env: { ...process.env, [VERIFY_TARGET_VARIABLE]: 'remote' },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

process.exitCode = await main();
