// Plans in Chromium: a plan picked on the pricing page travels through registration and is shown
// in Settings while the account starts on Free; Settings shows the plan with its usage (projects,
// this month's submissions as bars, the reset date) at 1280 and 390 px; the forms page warns from
// 80 % of the month. Screenshots in test-artifacts/screenshots/plans-*.png.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirmThroughMail,
  newAccount,
  signedInUser,
  submitRegistration,
  waitForPath,
} from './support/auth';
import { useE2e } from './support/session';
import { superuserPool } from '../support/db';
import { monthUsage, setMonthUsage, setPlan, TEST_PLAN } from '../support/plans';
import { createForm } from '../support/supabase-users';
import { testStack } from '../support/stack.ts';

let pool: pg.Pool;

beforeAll(() => {
  pool = superuserPool(testStack().dbUrl);
});
afterAll(async () => {
  await pool?.end();
});

/** Posts one message to the form as its website's visitor would (JSON, the allowed origin). */
async function postMessage(formId: string, message: string): Promise<number> {
  const res = await fetch(`${testStack().apiUrl}/functions/v1/forms/${formId}`, {
    method: 'POST',
    headers: {
      Origin: 'https://example.test',
      Accept: 'application/json',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ name: 'Visitor', message }),
  });
  await res.body?.cancel();
  return res.status;
}

describe('plans in Chromium', () => {
  const e2e = useE2e('plans');

  it(
    'keeps the plan picked on the pricing page through registration; the account starts on Free',
    { timeout: 180_000 },
    async () => {
      // This deployment's default, as in production (the test stack starts accounts unlimited;
      // browser test files run one at a time, so the change is seen by this test alone).
      await pool.query("update private.plan_settings set default_plan = 'free'");
      try {
        const page = await e2e.newPage();
        await page.goto('/pricing');
        await page.getByText('Annual · 2 months free').click();
        await page.getByRole('link', { name: 'Get Started with Pro' }).click();
        await waitForPath(page, '/register');
        expect(new URL(page.url()).search).toBe('?plan=pro&billing=annual');
        await page.getByText('Pro · €190/year').waitFor();
        expect(await page.getByTestId('plan-note').innerText()).toContain(
          'Every account starts on Free (1 project, 100 submissions a month). We keep Pro with your account',
        );
        await e2e.shot(page, 'register-with-pro');

        const account = newAccount('Plan Picker');
        await submitRegistration(page, account);
        await confirmThroughMail(page, account.email);

        await page.goto('/settings');
        const plan = page.getByRole('region', { name: 'Plan and usage' });
        await plan.getByTestId('plan-name').waitFor();
        expect(await plan.getByTestId('plan-name').innerText()).toBe('Free');
        expect(await plan.getByTestId('chosen-plan').innerText()).toBe(
          'Pro · €190/year (annual billing)',
        );
        const { rows } = await pool.query(
          `select a.plan_id, a.chosen_plan, a.chosen_billing from public.account_plans a
             join auth.users u on u.id = a.user_id where u.email = $1`,
          [account.email],
        );
        expect(rows).toEqual([{ plan_id: 'free', chosen_plan: 'pro', chosen_billing: 'annual' }]);
      } finally {
        await pool.query('update private.plan_settings set default_plan = $1', [TEST_PLAN]);
      }
    },
  );

  it(
    'shows the plan with its usage in Settings and warns on the forms page from 80 %',
    { timeout: 180_000 },
    async () => {
      const page = await e2e.newPage();
      const user = await signedInUser(page, 'Busy Owner');
      await setPlan(pool, user.id, 'free');
      await pool.query(
        `update public.account_plans set chosen_plan = 'starter', chosen_billing = 'monthly'
          where user_id = $1`,
        [user.id],
      );
      const formId = await createForm(user.client, 'Contact');
      // 84 this month already; the 85th comes through the endpoint and crosses 80 %.
      await setMonthUsage(pool, user.id, 84);
      expect(await postMessage(formId, 'the 85th')).toBe(200);
      expect(await monthUsage(pool, user.id)).toMatchObject({ submissions: 85, warned80: true });

      await page.goto('/settings');
      const plan = page.getByRole('region', { name: 'Plan and usage' });
      const submissions = plan.getByRole('progressbar', { name: 'Submissions this month' });
      await submissions.waitFor();
      expect(await submissions.getAttribute('aria-valuetext')).toBe('85 of 100 submissions');
      expect(
        await plan.getByRole('progressbar', { name: 'Projects' }).getAttribute('aria-valuetext'),
      ).toBe('1 of 1 project');
      const text = await plan.innerText();
      expect(text).toContain('85 of 100 submissions (85 %)');
      expect(text).toMatch(/the count starts again on 1 \w+ \d{4}/);
      expect(text).toContain('Starter · €9/month (monthly billing)');
      expect(text).toContain('plans are switched by hand on request');
      await e2e.shot(page, 'settings-1280');

      const phone = await e2e.newPage({ width: 390, height: 844 });
      await phone.goto('/login');
      await phone.getByLabel('Email', { exact: true }).fill(user.email);
      await phone.getByLabel('Password', { exact: true }).fill(user.password);
      await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
      await waitForPath(phone, '/dashboard');
      const banner = phone.getByTestId('usage-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain(
        'You have used 85 of 100 submissions this month (85 %)',
      );
      await phone.goto('/settings');
      const phonePlan = phone.getByRole('region', { name: 'Plan and usage' });
      await phonePlan.getByRole('progressbar', { name: 'Submissions this month' }).waitFor();
      // Nothing sticks out sideways at phone width.
      expect(
        await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await e2e.shot(phone, 'settings-390');

      await phone.goto('/dashboard/forms');
      await phone.getByTestId('usage-banner').waitFor();
      await e2e.shot(phone, 'forms-banner-390');
      await phone.getByRole('link', { name: 'See your plan and usage' }).click();
      await waitForPath(phone, '/settings');
    },
  );
});
