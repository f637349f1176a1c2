// Shared site texts and constants from the product spec: one source of truth for timings,
// marketing figures and messages that appear in more than one place. The plans are in plans.ts
// and the dashboard's news in whats-new.ts: the first page load carries this module, not those.
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

/** The pricing cards' link target (no screen of its own): it forwards to register with the plan. */
export const PLAN_SIGNUP_PATH = '/auth';

/** The header's main navigation, in order. */
export const NAV_LINKS = [
  { label: 'Tools', to: paths.tools },
  { label: 'Pricing', to: paths.pricing },
  { label: 'Docs', to: paths.docs },
  { label: 'Blog', to: paths.blog },
  { label: 'Custom Web', to: paths.custom },
] as const;

/** Where the dashboard's promo card sends people who want to run tinyback themselves. */
export const SELF_HOSTING_DOCS = `${paths.docs}#self-hosting`;

/** The longest display name a profile holds (profiles_name_length in the profiles migration). */
export const DISPLAY_NAME_MAX_LENGTH = 200;

/** Builds a page title such as "Pricing · tinyback.tools". */
export function pageTitle(page?: string): string {
  return page ? `${page} · ${site.name}` : `${site.name} — form backend for any website`;
}
