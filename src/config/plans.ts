// The paid plans (spec §9) and their billing cycles: the pricing page, register's plan summary
// and the pricing cards' sign-up link. Apart from site.ts so that the first page load, which
// needs site.ts, does not carry them.
import { PLAN_SIGNUP_PATH } from './site';

export type BillingCycle = 'monthly' | 'annually';

/** How a billing cycle is written in a URL (`?billing=annual`); monthly is the default. */
export function billingParam(cycle: BillingCycle): string {
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
  features: readonly string[];
  popular: boolean;
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
  },
  {
    id: 'pro',
    title: 'Pro',
    description: 'For freelancers and small teams shipping several sites.',
    monthly: 19,
    annually: 190,
    features: ['Up to 10 projects', 'Advanced analytics', 'Priority support', 'Team collaboration'],
    popular: true,
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
  },
];

export function findPlan(id: string | null | undefined): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

/** The pricing card's link: the plan, and the cycle when it is not the default. */
export function planSignupPath(planId: Plan['id'], cycle: BillingCycle = 'monthly'): string {
  const billing = cycle === 'monthly' ? '' : `&billing=${billingParam(cycle)}`;
  return `${PLAN_SIGNUP_PATH}?plan=${planId}${billing}`;
}
