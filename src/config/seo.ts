// What search engines and link previews learn about each public page: title, description,
// canonical URL, the share image, and the robots.txt + sitemap.xml built from the same list
// (public/robots.txt and public/sitemap.xml are written from here by scripts/write-seo-files.ts;
// src/config/seo.test.ts fails when they drift apart).
import { paths } from './paths';
import { pageTitle, site } from './site';

export interface PageMetaEntry {
  /** The page's path on the site (its canonical URL is `site.url` + path). */
  path: string;
  /** The page's name in the title ("Pricing · tinyback.tools"); none for the home page. */
  title?: string;
  /** The search-result snippet: one or two sentences, unique per page. */
  description: string;
}

/** Every public route of the spec's route table that is a page of its own. */
export const PAGE_META = {
  home: {
    path: paths.home,
    description:
      'tinyback.tools is the open-source, self-hostable form backend: point any HTML form at it and get every submission by e-mail and in a live dashboard. No server code.',
  },
  pricing: {
    path: paths.pricing,
    title: 'Pricing',
    description:
      'Start free: 1 project, 100 submissions a month. Starter, Pro and Enterprise raise the quotas, in euros monthly or annually — or self-host tinyback for free.',
  },
  tools: {
    path: paths.tools,
    title: 'Tools',
    description:
      'Small backend tools for websites: a form backend, privacy-friendly analytics, a newsletter system and bookings, privacy-first and EU-hosted.',
  },
  blog: {
    path: paths.blog,
    title: 'Blog',
    description:
      'Guides, tips and product updates on HTML forms, spam defence, static sites and running your own form backend.',
  },
  docs: {
    path: paths.docs,
    title: 'Docs',
    description:
      'How to create a form, embed it, post to the endpoint with HTML or fetch, handle errors and limits, and self-host tinyback on Supabase.',
  },
  custom: {
    path: paths.custom,
    title: 'Custom web development',
    description:
      'The team behind tinyback builds fast, accessible, privacy-friendly websites and web apps on Supabase. Tell us about your project.',
  },
  terms: {
    path: paths.terms,
    title: 'Terms of Service',
    description: 'The terms that apply when you use tinyback.tools and its form backend.',
  },
  privacy: {
    path: paths.privacy,
    title: 'Privacy Policy',
    description:
      'What tinyback.tools collects, why, how long it keeps it, and your rights under the GDPR and CCPA.',
  },
  login: {
    path: paths.login,
    title: 'Login',
    description: 'Sign in to your tinyback.tools dashboard to manage your forms and messages.',
  },
  register: {
    path: paths.register,
    title: 'Create your account',
    description:
      'Create a tinyback.tools account and start collecting form submissions in minutes. No credit card required.',
  },
} as const satisfies Record<string, PageMetaEntry>;

/**
 * The blog posts the seed creates (supabase/seed.sql; ids are stable across environments). A test
 * reads the seed and fails when this list misses one.
 */
export const SEEDED_BLOG_POST_IDS = [1, 2, 3, 4, 5, 6] as const;

/** Paths no search engine should crawl: signed-in pages, one-time links and the form redirects. */
export const DISALLOWED_PATHS = [
  paths.dashboard,
  paths.settings,
  paths.confirmAddress,
  '/newsletter/',
  paths.thanks,
  paths.formError,
  '/auth',
  '/book/',
] as const;

/** The share image (public/og-image.png, made by scripts/render-og-image.ts). */
export const OG_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: `${site.name} — ${site.tagline}`,
} as const;

/** An absolute URL on the public site. */
export function absoluteUrl(path: string): string {
  return `${site.url}${path === '/' ? '/' : path}`;
}

/** The full <title> text of a page. */
export function metaTitle(entry: PageMetaEntry): string {
  return pageTitle(entry.title);
}

/** Every URL the sitemap lists, in order: the pages, then the seeded blog posts. */
export function sitemapPaths(): string[] {
  return [
    ...Object.values(PAGE_META).map((entry) => entry.path),
    ...SEEDED_BLOG_POST_IDS.map((id) => paths.blogPost(id)),
  ];
}

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function sitemapXml(): string {
  const urls = sitemapPaths()
    .map((path) => `  <url>\n    <loc>${escapeXml(absoluteUrl(path))}</loc>\n  </url>`)
    .join('\n');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    `${urls}\n` +
    '</urlset>\n'
  );
}

export function robotsTxt(): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${absoluteUrl('/sitemap.xml')}`,
    '',
  ].join('\n');
}
