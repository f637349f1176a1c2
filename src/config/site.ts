// Shared site texts and constants from the product spec: one source of truth for plans, timings,
// marketing figures and messages that appear in more than one place.
import { paths } from './paths';

export const site = {
  name: 'tinyback.tools',
  wordmark: { base: 'tinyback', suffix: '.tools' },
  tagline: 'The open-source, self-hostable form backend for any website.',
  contactEmail: 'hello@tinyback.tools',
  /** Where the public site is served: canonical links, the sitemap and share cards use it. */
  url: 'https://tinyback.tools',
  /** The project's source repository (footer icon, self-hosting card). */
  repositoryUrl: 'https://github.com/tinyback-tools/tinyback',
} as const;

/** The README's deploy section, for people who want to run tinyback themselves. */
export const SELF_HOSTING_GUIDE_URL = `${site.repositoryUrl}#deploying`;

/**
 * The site's own tinyback form: /custom's project enquiries post to it (seeded in
 * supabase/seed.sql, owned by the site's account, notifications to `site.contactEmail`).
 */
export const CUSTOM_ENQUIRY_FORM_ID = '7b1c2d3e-4f50-4a61-8b72-9c83d4e5f607';

/** The public endpoint a form posts to: `{supabaseUrl}/functions/v1/forms/{formId}`. */
export function formEndpoint(supabaseUrl: string, formId: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/forms/${encodeURIComponent(formId)}`;
}

/** How long the copy button reads 'Copied' after a successful copy. */
export const COPY_CONFIRM_MS = 1500;

/** The server's password rule, repeated in the register form's hint. */
export const PASSWORD_MIN_LENGTH = 6;

/** Terms of Service effective date. */
export const TERMS_EFFECTIVE_DATE = 'July 11, 2025';

/** Privacy requests are answered within this time. */
export const PRIVACY_RESPONSE_TIME = 'one month';

export const NEWSLETTER_TEXT = {
  invalidEmail: 'Please enter a valid email.',
  failure: 'Es gab ein Problem bei der Anmeldung zum Newsletter.',
  success: 'Thanks for subscribing! Check your inbox and confirm your subscription.',
} as const;

export const MARKETING_FIGURES = [
  { value: '3.4K+', label: 'active users' },
  { value: '1.9K', label: 'forms created' },
  { value: '12+', label: 'countries' },
  { value: '5', label: 'tools' },
] as const;

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

/** The pricing cards' link target (no screen of its own): it forwards to register with the plan. */
export const PLAN_SIGNUP_PATH = '/auth';

/** The pricing card's link: the plan, and the cycle when it is not the default. */
export function planSignupPath(planId: Plan['id'], cycle: BillingCycle = 'monthly'): string {
  const billing = cycle === 'monthly' ? '' : `&billing=${billingParam(cycle)}`;
  return `${PLAN_SIGNUP_PATH}?plan=${planId}${billing}`;
}

/** The header's main navigation, in order. */
export const NAV_LINKS = [
  { label: 'Tools', to: paths.tools },
  { label: 'Pricing', to: paths.pricing },
  { label: 'Docs', to: paths.docs },
  { label: 'Blog', to: paths.blog },
  { label: 'Custom Web', to: paths.custom },
] as const;

export interface WhatsNewItem {
  /** ISO date (YYYY-MM-DD) the change shipped. */
  date: string;
  title: string;
  description: string;
}

/** The dashboard's 'What's new' list, newest first. */
export const WHATS_NEW: readonly WhatsNewItem[] = [
  {
    date: '2026-11-24',
    title: 'Account settings',
    description:
      'Change your display name or password, or delete your account and all its data, from Settings.',
  },
  {
    date: '2026-11-24',
    title: 'A live dashboard',
    description:
      'New forms and messages appear the moment they arrive, with an unread count beside Forms.',
  },
  {
    date: '2026-11-22',
    title: 'Notifications that arrive',
    description: 'Notification e-mails that fail to send are retried automatically with backoff.',
  },
  {
    date: '2026-11-22',
    title: 'Spam defence built in',
    description: 'Honeypot fields and per-visitor rate limits keep bots out of your inbox.',
  },
];

/** Where the dashboard's promo card sends people who want to run tinyback themselves. */
export const SELF_HOSTING_DOCS = `${paths.docs}#self-hosting`;

/** The longest display name a profile holds (profiles_name_length in the profiles migration). */
export const DISPLAY_NAME_MAX_LENGTH = 200;

/** Builds a page title such as "Pricing · tinyback.tools". */
export function pageTitle(page?: string): string {
  return page ? `${page} · ${site.name}` : `${site.name} — form backend for any website`;
}
