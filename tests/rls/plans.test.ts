// Plans through supabase-js as two real users and anon: the quota tiers are public and agree with
// what the site shows (src/config/plans.ts); an account's plan is its owner's to read and nobody's
// to write but the operators'; the plan picked before registering is recorded at sign-up while
// the account starts on the default plan; and a project (a distinct allowed origin among the
// account's forms) over the plan's quota is refused, 403 PT403 plan_project_limit, for a
// signed-in client — never for the service role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { PLAN_QUOTAS } from '../../src/config/plans.ts';
import { superuserPool, uniqueEmail } from '../support/db.ts';
import { setPlan, TEST_PLAN } from '../support/plans.ts';
import { remote } from '../support/target.ts';
import {
  createForm,
  newClient,
  serviceClient,
  signUp,
  TEST_PASSWORD,
  type TestUser,
} from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

let pool: pg.Pool;
let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;
const extraUsers: string[] = [];

beforeAll(async () => {
  pool = superuserPool(testStack().dbUrl);
  service = serviceClient();
  [alice, bob] = await Promise.all([signUp('Alice Plans'), signUp('Bob Plans')]);
  await setPlan(pool, alice.id, 'free');
  await setPlan(pool, bob.id, 'pro');
});

afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [
    [alice?.id, bob?.id, ...extraUsers].filter(Boolean),
  ]);
  await pool?.end();
});

interface PlanRow {
  id: string;
  name: string;
  projects: number | null;
  submissions_per_month: number | null;
  listed: boolean;
}

describe('plans', () => {
  it('are public, and hold the numbers the site shows (one source, no drift)', async () => {
    for (const client of [newClient(), alice.client]) {
      const { data, error } = await client
        .from('plans')
        .select('id, name, projects, submissions_per_month, listed')
        .order('position');
      expect(error).toBeNull();
      const rows = data as PlanRow[];
      expect(
        Object.fromEntries(
          rows.map((p) => [
            p.id,
            { projects: p.projects, submissionsPerMonth: p.submissions_per_month },
          ]),
        ),
      ).toEqual(PLAN_QUOTAS);
      expect(rows.filter((p) => p.listed).map((p) => p.name)).toEqual([
        'Free',
        'Starter',
        'Pro',
        'Enterprise',
      ]);
    }
  });

  it('cannot be changed by anyone through the API', async () => {
    const { error: insert } = await alice.client
      .from('plans')
      .insert({ id: 'mine', name: 'Mine', position: 9 });
    expect(insert?.code).toBe('42501');
    const { error: update } = await newClient()
      .from('plans')
      .update({ submissions_per_month: 1_000_000 })
      .eq('id', 'free');
    expect(update?.code).toBe('42501');
    const { error: serviceUpdate } = await service
      .from('plans')
      .update({ submissions_per_month: 1_000_000 })
      .eq('id', 'free');
    expect(serviceUpdate?.code).toBe('42501');
  });

  it('keeps the deployment settings from every client', async () => {
    // private.plan_settings: not served by the Data API, to the service role neither.
    for (const client of [newClient(), alice.client, serviceClient()]) {
      const { error } = await client.from('plan_settings').select('*');
      expect(error?.code).toBe('PGRST205');
    }
    const { error } = await alice.client
      .from('plan_settings')
      .update({ unlimited: true })
      .eq('id', true);
    expect(error?.code).toBe('PGRST205');
  });
});

describe('account_plans', () => {
  it("shows each owner her own plan, and nobody else's", async () => {
    const { data: mine, error } = await alice.client
      .from('account_plans')
      .select('user_id, plan_id');
    expect(error).toBeNull();
    expect(mine).toEqual([{ user_id: alice.id, plan_id: 'free' }]);
    const { data: theirs } = await alice.client
      .from('account_plans')
      .select('user_id')
      .eq('user_id', bob.id);
    expect(theirs).toEqual([]);
    const { data: bobs } = await bob.client.from('account_plans').select('plan_id');
    expect(bobs).toEqual([{ plan_id: 'pro' }]);
    const { error: anonError } = await newClient().from('account_plans').select('user_id');
    expect(anonError?.code).toBe('42501');
  });

  it('lets no client choose its own plan', async () => {
    const update = await alice.client
      .from('account_plans')
      .update({ plan_id: 'enterprise' })
      .eq('user_id', alice.id);
    expect(update.error?.code).toBe('42501');
    const remove = await alice.client.from('account_plans').delete().eq('user_id', alice.id);
    expect(remove.error?.code).toBe('42501');
    const insert = await bob.client
      .from('account_plans')
      .insert({ user_id: bob.id, plan_id: 'unlimited' });
    expect(insert.error?.code).toBe('42501');
    // The operators' function is the service role's alone.
    const rpc = await alice.client.rpc('set_account_plan', {
      p_user_id: alice.id,
      p_plan: 'unlimited',
    });
    expect(rpc.error?.code).toBe('42501');
    const anon = await newClient().rpc('set_account_plan', {
      p_user_id: alice.id,
      p_plan: 'unlimited',
    });
    expect(anon.error?.code).toBe('42501');
    const { rows } = await pool.query(
      'select plan_id from public.account_plans where user_id = $1',
      [alice.id],
    );
    expect(rows).toEqual([{ plan_id: 'free' }]);
  });

  it('is switched by an operator with the service role, and unknown plans are refused', async () => {
    const user = await signUp('Carol Switch');
    extraUsers.push(user.id);
    const { data, error } = await service.rpc('set_account_plan', {
      p_user_id: user.id,
      p_plan: 'starter',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ user_id: user.id, plan_id: 'starter' });
    const { data: seen } = await user.client.from('account_plans').select('plan_id');
    expect(seen).toEqual([{ plan_id: 'starter' }]);
    const unknown = await service.rpc('set_account_plan', {
      p_user_id: user.id,
      p_plan: 'platinum',
    });
    expect(unknown.error).toMatchObject({ code: 'PT404', hint: 'plan_not_found' });
  });

  it('records the plan picked before registering; the account starts on the default plan', async () => {
    const { rows } = await pool.query<{ default_plan: string }>(
      'select default_plan from private.plan_settings',
    );
    // Under `npm run verify` the deployment's default stays as its operator set it, and the run's
    // test accounts start on TEST_PLAN instead (tests/setup/remote.ts).
    const defaultPlan = remote ? TEST_PLAN : rows[0]!.default_plan;
    const cases = [
      { data: { name: 'Dora', plan: 'pro', billing: 'annual' }, chosen: 'pro', billing: 'annual' },
      { data: { name: 'Eve', plan: 'starter' }, chosen: 'starter', billing: 'monthly' },
      // Only plans on the pricing page count as chosen: nobody picks the operators' plan.
      { data: { name: 'Finn', plan: 'unlimited', billing: 'annual' }, chosen: null, billing: null },
      { data: { name: 'Gus', plan: 'platinum' }, chosen: null, billing: null },
      { data: { name: 'Hal' }, chosen: null, billing: null },
    ];
    for (const c of cases) {
      // The register form's call: a visitor signing up with metadata (confirmed later by mail).
      const { data, error } = await newClient().auth.signUp({
        email: uniqueEmail(c.data.name.toLowerCase()),
        password: TEST_PASSWORD,
        options: { data: c.data },
      });
      expect(error).toBeNull();
      const id = data.user!.id;
      extraUsers.push(id);
      const { data: row } = await service
        .from('account_plans')
        .select('plan_id, chosen_plan, chosen_billing')
        .eq('user_id', id)
        .single();
      expect(row, c.data.name).toEqual({
        plan_id: defaultPlan,
        chosen_plan: c.chosen,
        chosen_billing: c.billing,
      });
    }
  });
});

describe('plan_usage()', () => {
  it("answers the caller's own plan and usage, and nobody's to anon", async () => {
    await createForm(bob.client, 'Usage A', { allowed_origin: 'https://one.example.test' });
    await createForm(bob.client, 'Usage B', { allowed_origin: 'https://one.example.test/' });
    await createForm(bob.client, 'Usage C', { allowed_origin: 'https://two.example.test' });
    const { data, error } = await bob.client.rpc('plan_usage');
    expect(error).toBeNull();
    expect(data).toMatchObject({
      plan: { id: 'pro', name: 'Pro', projects: 10, submissions_per_month: 10_000 },
      limits: { projects: 10, submissions_per_month: 10_000 },
      deployment_unlimited: false,
      projects_used: 2,
      submissions_used: 0,
      warned_80: false,
      warned_100: false,
    });
    const usage = data as { resets_at: string; month_start: string };
    const now = new Date();
    expect(usage.month_start).toBe(
      `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`,
    );
    expect(new Date(usage.resets_at).getUTCDate()).toBe(1);
    expect(new Date(usage.resets_at).getTime()).toBeGreaterThan(now.getTime());

    const { error: anonError } = await newClient().rpc('plan_usage');
    expect(anonError?.code).toBe('42501');
  });

  it('is the only way to this month’s count: the usage table is not exposed', async () => {
    const { error } = await alice.client.schema('private').from('submission_usage').select('*');
    expect(error).not.toBeNull();
    const { error: fn } = await alice.client.rpc('take_submission_quota', {
      p_user: alice.id,
      p_is_spam: false,
    });
    expect(fn).not.toBeNull();
  });
});

describe('projects (distinct websites) per plan', () => {
  it('refuses a signed-in client a form on one website more than its plan allows', async () => {
    // Free: 1 project. Forms on the same site, however spelled, are that one project.
    await createForm(alice.client, 'Contact', { allowed_origin: 'https://a.example.test' });
    await createForm(alice.client, 'Newsletter', { allowed_origin: ' HTTPS://A.example.test/ ' });
    const refused = await alice.client
      .from('forms')
      .insert({
        name: 'Other site',
        target_email: 'owner@example.test',
        allowed_origin: 'https://c.example.test',
      })
      .select('id');
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'PT403', hint: 'plan_project_limit' });
    expect(refused.error?.message).toBe(
      'Your Free plan includes 1 project (one website each), and https://c.example.test would be another. Use the website of one of your forms, or move to a bigger plan (Settings → Plan and usage).',
    );
    const { data: forms } = await alice.client.from('forms').select('allowed_origin');
    expect(forms?.map((f) => f.allowed_origin)).toEqual([
      'https://a.example.test',
      'https://a.example.test',
    ]);
  });

  it('refuses moving a form to a new website, unless it is the only form there', async () => {
    const { data: forms } = await alice.client.from('forms').select('id, name').order('created_at');
    const [contact, newsletter] = forms!;
    const moved = await alice.client
      .from('forms')
      .update({ allowed_origin: 'https://c.example.test' })
      .eq('id', newsletter!.id);
    expect(moved.error).toMatchObject({ code: 'PT403', hint: 'plan_project_limit' });
    // Renaming is not moving.
    const renamed = await alice.client
      .from('forms')
      .update({ name: 'Newsletter signup' })
      .eq('id', newsletter!.id);
    expect(renamed.error).toBeNull();
    // With one form left, moving it keeps one project.
    expect((await alice.client.from('forms').delete().eq('id', newsletter!.id)).error).toBeNull();
    const alone = await alice.client
      .from('forms')
      .update({ allowed_origin: 'https://c.example.test' })
      .eq('id', contact!.id);
    expect(alone.error).toBeNull();
  });

  it('lets two racing forms on new websites take the last project only once', async () => {
    const user = await signUp('Racer Plans');
    extraUsers.push(user.id);
    await setPlan(pool, user.id, 'free');
    const results = await Promise.all(
      ['https://r1.example.test', 'https://r2.example.test', 'https://r3.example.test'].map(
        (origin) =>
          user.client
            .from('forms')
            .insert({ name: origin, target_email: 'owner@example.test', allowed_origin: origin }),
      ),
    );
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    expect(results.filter((r) => r.error?.code === 'PT403')).toHaveLength(2);
  });

  it('never limits the service role, and a bigger plan lifts the cap at once', async () => {
    const { error } = await service.from('forms').insert({
      user_id: alice.id,
      name: 'Made by support',
      target_email: 'owner@example.test',
      allowed_origin: 'https://d.example.test',
    });
    expect(error).toBeNull();
    const { data: usage } = await alice.client.rpc('plan_usage');
    expect(usage).toMatchObject({ projects_used: 2, limits: { projects: 1 } });
    // Over the plan after that: a form on a website already used is still fine, a new one is not.
    await createForm(alice.client, 'Same site', { allowed_origin: 'https://d.example.test' });
    const refused = await alice.client.from('forms').insert({
      name: 'New site',
      target_email: 'owner@example.test',
      allowed_origin: 'https://e.example.test',
    });
    expect(refused.error?.code).toBe('PT403');
    await setPlan(pool, alice.id, 'pro');
    await createForm(alice.client, 'New site', { allowed_origin: 'https://e.example.test' });
    const { data: after } = await alice.client.rpc('plan_usage');
    expect(after).toMatchObject({ plan: { id: 'pro' }, projects_used: 3 });
  });
});
