// Plans in the integration tests. Every suite but the quota tests creates several forms on
// several origins and many posts per owner, so the test stacks start every new account on the
// operators' `unlimited` plan (`plan_settings.default_plan`); the quota tests put their own
// accounts on the plan they test (`setPlan`). Under `npm run verify`, where the deployment's
// default stays as its operator set it, the test accounts (at example.test, which no real person
// can have) are given `unlimited` by a trigger installed for the run and removed after it
// (tests/setup/remote.ts).
import pg from 'pg';

/** The plan the suites' accounts are on unless a test says otherwise. */
export const TEST_PLAN = 'unlimited';

/** New accounts start on TEST_PLAN (the local test stack; a deployment is never changed so). */
export async function startNewAccountsUnlimited(dbUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('update private.plan_settings set default_plan = $1', [TEST_PLAN]);
  } finally {
    await client.end();
  }
}

/** Puts an account on a plan as an operator does (public.set_account_plan, definer). */
export async function setPlan(
  db: pg.Pool | pg.Client,
  userId: string,
  plan: string,
): Promise<void> {
  await db.query('select public.set_account_plan($1, $2)', [userId, plan]);
}

/** Sets an account's count for the current month (as if that many posts had been stored). */
export async function setMonthUsage(
  db: pg.Pool | pg.Client,
  userId: string,
  submissions: number,
): Promise<void> {
  await db.query(
    `insert into private.submission_usage (user_id, month, submissions)
       values ($1, private.usage_month(), $2)
     on conflict (user_id, month) do update set submissions = excluded.submissions`,
    [userId, submissions],
  );
}

/** The account's count this month and whether each warning went out. */
export async function monthUsage(
  db: pg.Pool | pg.Client,
  userId: string,
): Promise<{ submissions: number; warned80: boolean; warned100: boolean }> {
  const { rows } = await db.query<{ submissions: number; warned80: boolean; warned100: boolean }>(
    `select coalesce(u.submissions, 0) as submissions,
            u.warned_80_at is not null as "warned80", u.warned_100_at is not null as "warned100"
       from (select 1) one
       left join private.submission_usage u
         on u.user_id = $1 and u.month = private.usage_month()`,
    [userId],
  );
  return rows[0]!;
}
