// The plans (spec §9) and their billing cycles: the pricing page, register's plan summary, the
// pricing cards' sign-up link, and each plan's quotas. Apart from site.ts so that the first page
// load, which needs site.ts, does not carry them.
//
// Plans are quota tiers. Every account starts on Free; the paid plans (Starter, Pro, Enterprise)
// raise the quotas. The database holds the same numbers in `public.plans` and enforces them
// (supabase/migrations/20261201100000_plans_and_quotas.sql); tests/rls/plans.test.ts fails when
// the two disagree.
import { PLAN_SIGNUP_PATH } from './site';

/**
 * What a plan allows; null is unlimited. A project is one website: a distinct allowed origin
 * among the account's forms (forms on the same site are one project). Submissions are the
 * non-spam posts the endpoint stores in a calendar month (UTC).
 */
export interface PlanQuota {
  projects: number | null;
  submissionsPerMonth: number | null;
}

/** Every plan's quotas, as `public.plans` holds them; `unlimited` is the operators' plan. */
export const PLAN_QUOTAS = {
  free: { projects: 1, submissionsPerMonth: 100 },
  starter: { projects: 1, submissionsPerMonth: 1_000 },
  pro: { projects: 10, submissionsPerMonth: 10_000 },
  enterprise: { projects: null, submissionsPerMonth: 100_000 },
  unlimited: { projects: null, submissionsPerMonth: null },
} as const satisfies Record<string, PlanQuota>;

/** Where every account starts, whatever it chose on the pricing page. */
export const FREE_PLAN = {
  id: 'free',
  title: 'Free',
  quota: PLAN_QUOTAS.free,
} as const;

const numberFormat = new Intl.NumberFormat('en-US');

/** 10000 → "10,000". */
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** (1, 'project') → "1 project"; (1000, 'submission') → "1,000 submissions". */
export function formatQuantity(n: number, unit: string): string {
  return `${formatNumber(n)} ${unit}${n === 1 ? '' : 's'}`;
}

/** A quota as a line of a plan card: "1,000 submissions a month", "Unlimited submissions". */
export function submissionsQuotaText(quota: PlanQuota): string {
  return quota.submissionsPerMonth === null
    ? 'Unlimited submissions'
    : `${formatQuantity(quota.submissionsPerMonth, 'submission')} a month`;
}

/** "1 project", "Up to 10 projects", "Unlimited projects". */
export function projectsQuotaText(quota: PlanQuota): string {
  if (quota.projects === null) return 'Unlimited projects';
  return quota.projects === 1 ? '1 project' : `Up to ${formatQuantity(quota.projects, 'project')}`;
}

export type BillingCycle = 'monthly' | 'annually';

/** How a billing cycle is written in a URL (`?billing=annual`); monthly is the default. */
export function billingParam(cycle: BillingCycle): 'monthly' | 'annual' {
  return cycle === 'annually' ? 'annual' : 'monthly';
}

/** Reads `?billing=` back; anything but `annual` means the default, monthly. */
export function parseBilling(value: string | null | undefined): BillingCycle {
  return value === 'annual' ? 'annually' : 'monthly';
}

/** A plan's price for a cycle, as shown on pricing and register: "€190/year". */
export function planPrice(plan: Plan, cycle: BillingCycle): { amount: number; unit: string } {
  return cycle === 'annually'
    ? { amount: plan.annually, unit: 'year' }
    : { amount: plan.monthly, unit: 'month' };
}

export interface Plan {
  id: 'starter' | 'pro' | 'enterprise';
  title: string;
  description: string;
  monthly: number;
  annually: number;
  /** The spec's features; the first is the projects quota. */
  features: readonly string[];
  popular: boolean;
  quota: PlanQuota;
}

/** Prices in euros (spec §9). */
export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    title: 'Starter',
    description: 'For a personal site or a single landing page.',
    monthly: 9,
    annually: 90,
    features: ['1 project', 'Basic analytics', 'Email support'],
    popular: false,
    quota: PLAN_QUOTAS.starter,
  },
  {
    id: 'pro',
    title: 'Pro',
    description: 'For freelancers and small teams shipping several sites.',
    monthly: 19,
    annually: 190,
    features: ['Up to 10 projects', 'Advanced analytics', 'Priority support', 'Team collaboration'],
    popular: true,
    quota: PLAN_QUOTAS.pro,
  },
  {
    id: 'enterprise',
    title: 'Enterprise',
    description: 'For agencies and companies with many forms and clients.',
    monthly: 49,
    annually: 490,
    features: [
      'Unlimited projects',
      'Custom integrations',
      'Dedicated account manager',
      'Premium support',
    ],
    popular: false,
    quota: PLAN_QUOTAS.enterprise,
  },
];

export function findPlan(id: string | null | undefined): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

/**
 * A plan card's points: the spec's features with the submissions quota after the projects line
 * ("1 project", "1,000 submissions a month", "Basic analytics", …).
 */
export function planPoints(plan: Plan): string[] {
  const [projects, ...rest] = plan.features;
  return [projects!, submissionsQuotaText(plan.quota), ...rest];
}

/** The pricing card's link: the plan, and the cycle when it is not the default. */
export function planSignupPath(planId: Plan['id'], cycle: BillingCycle = 'monthly'): string {
  const billing = cycle === 'monthly' ? '' : `&billing=${billingParam(cycle)}`;
  return `${PLAN_SIGNUP_PATH}?plan=${planId}${billing}`;
}
