// The integration setup's remote mode (`npm run verify`): provides a deployment named in the
// environment to the suites in the shape the local stack has, and removes the suites' test rows
// from it before and after the run. Test rows are recognised by their e-mail addresses: every user,
// form owner, newsletter address and notification the suites create is at example.test or one of
// its subdomains, a domain reserved by RFC 2606 that no real person can have.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { readRemoteTarget } from '../../scripts/verify-env.ts';
import { TEST_PLAN } from '../support/plans.ts';

/** Matches every address the suites create, and nothing a real user can own. */
export const TEST_ADDRESS_PATTERN = '@([a-z0-9-]+\\.)*example\\.test$';

/**
 * Provides the deployment in `env` as the project's one stack, held through the folder `claim`;
 * returns its database URL.
 */
export async function provideRemoteTarget(
  project: TestProject,
  env: Record<string, string | undefined>,
  claim: string,
): Promise<string> {
  const remote = readRemoteTarget(env);
  const portOf = (raw: string, fallback: number) => {
    const url = new URL(raw);
    return Number(url.port) || fallback;
  };
  const stack = {
    apiUrl: remote.apiUrl,
    dbUrl: remote.dbUrl,
    // Unknown values stay empty: the checks that need them are skipped (tests/support/target.ts).
    mailWebUrl: remote.mailWebUrl ?? '',
    anonKey: remote.anonKey,
    serviceRoleKey: remote.serviceRoleKey,
    jwtSecret: remote.jwtSecret ?? '',
    ports: {
      api: portOf(remote.apiUrl, remote.apiUrl.startsWith('https:') ? 443 : 80),
      db: portOf(remote.dbUrl, 5432),
      mailWeb: remote.mailWebUrl ? portOf(remote.mailWebUrl, 80) : 0,
      smtp: 0,
    },
  };
  const target = {
    kind: 'remote' as const,
    siteUrl: remote.siteUrl,
    proxySecret: remote.proxySecret,
    jwtSecret: remote.jwtSecret,
    mail: remote.mailWebUrl !== null,
    storageDir: null,
  };
  project.provide('stacks', [{ stack, target, siteDir: '', claim }]);
  // Rows left by an earlier run that was cut short go first, so every run starts clean.
  await removeRemoteTestRows(remote.dbUrl);
  await installRemoteTestPlan(remote.dbUrl);
  return remote.dbUrl;
}

/** Deletes the suites' users (their forms, entries and mail cascade), subscribers and mail. */
export async function removeRemoteTestRows(dbUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const removed: string[] = [];
    for (const [what, sql] of [
      ['users (with their forms and messages)', 'delete from auth.users where email ~* $1'],
      ['newsletter addresses', 'delete from public.list_subscribers where email ~* $1'],
      [
        'earlier newsletter addresses',
        'delete from private.newsletter_subscribers where email ~* $1',
      ],
      ['queued e-mails', 'delete from public.email_deliveries where recipient ~* $1'],
    ] as const) {
      const { rowCount } = await client.query(sql, [TEST_ADDRESS_PATTERN]);
      if (rowCount) removed.push(`${rowCount} ${what}`);
    }
    console.log(
      `verify: test rows at example.test removed: ${removed.length ? removed.join(', ') : 'none'}`,
    );
  } finally {
    await client.end();
  }
}

const REMOTE_TRIGGER = `
create or replace function public.verify_test_accounts_unlimited()
returns trigger language plpgsql security definer set search_path = '' as $fn$
begin
  -- Only the sign-up's own row (inserted by the auth.users trigger, so one trigger deeper), never
  -- an operator's set_account_plan(): its upsert passes here too, and the quota and plan suites
  -- put their accounts on the plan they test that way.
  if pg_trigger_depth() > 1 and exists (select 1 from auth.users u
              where u.id = new.user_id and u.email ~* '${TEST_ADDRESS_PATTERN}') then
    new.plan_id := '${TEST_PLAN}';
  end if;
  return new;
end;
$fn$;
revoke execute on function public.verify_test_accounts_unlimited() from public, anon, authenticated, service_role;
drop trigger if exists verify_test_accounts_unlimited on public.account_plans;
create trigger verify_test_accounts_unlimited
  before insert on public.account_plans
  for each row execute function public.verify_test_accounts_unlimited();
`;

/**
 * The suites' accounts (example.test addresses only) start on TEST_PLAN for the run, whatever the
 * deployment's default plan: the suites create many forms and posts per account, which a Free
 * account would refuse. A deployment without plans is left as it is.
 */
async function installRemoteTestPlan(dbUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ present: boolean }>(
      "select to_regclass('public.account_plans') is not null as present",
    );
    if (!rows[0]!.present) return;
    await client.query(REMOTE_TRIGGER);
    console.log(`verify: accounts at example.test start on the ${TEST_PLAN} plan during the run`);
  } finally {
    await client.end();
  }
}

/** Removes what installRemoteTestPlan installed. */
export async function removeRemoteTestPlan(dbUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query(
      `drop trigger if exists verify_test_accounts_unlimited on public.account_plans;
       drop function if exists public.verify_test_accounts_unlimited();`,
    );
  } finally {
    await client.end();
  }
}
