// The public site in real Chromium against the real local stack: every public route at desktop
// and phone widths (main heading, axe-core, its own title and description, a screenshot each),
// robots.txt and sitemap.xml as real files, /thanks without tinyback's frame, a newsletter
// signup that must land in the database as pending and be confirmed through the e-mailed link,
// and /custom's enquiry form posting to the site's own seeded tinyback form.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import pg from 'pg';
import { serveSite, type SiteServer } from './site-server';
import { launchBrowser, waitForAppOnGoto } from './support/browser';
import { linksIn, waitForMailTo } from './support/mail';
import { CUSTOM_ENQUIRY_FORM_ID, site as siteConfig } from '../../src/config/site';
import { testSiteDir, testStack } from '../support/stack.ts';
const SCREENSHOTS = path.resolve('test-artifacts/screenshots');

/** Pages kept out of search results: a noindex rule instead of a canonical link. */
const NOINDEX = /^\/(thanks|newsletter\/)/;

const routes: { path: string; name: string; h1: RegExp }[] = [
  { path: '/', name: 'home', h1: /The form backend for any website/ },
  { path: '/pricing', name: 'pricing', h1: /Simple pricing/ },
  { path: '/tools', name: 'tools', h1: /Small backend tools/ },
  { path: '/custom', name: 'custom', h1: /Custom web development/ },
  { path: '/docs', name: 'docs', h1: /Documentation/ },
  { path: '/blog', name: 'blog', h1: /Notes on forms/ },
  { path: '/blog/1', name: 'blog-post', h1: /Add a contact form to a static site/ },
  { path: '/terms-of-service', name: 'terms', h1: /^Terms of Service$/ },
  { path: '/privacy-policy', name: 'privacy', h1: /^Privacy Policy$/ },
  { path: '/login', name: 'login', h1: /Welcome back/ },
  { path: '/register', name: 'register', h1: /Create your account/ },
  { path: '/thanks', name: 'thanks', h1: /Thanks! Your message has been sent\./ },
  { path: '/newsletter/confirm', name: 'newsletter-confirm', h1: /^Confirm your subscription$/ },
  {
    path: '/newsletter/unsubscribe',
    name: 'newsletter-unsubscribe',
    h1: /^Unsubscribe from the newsletter$/,
  },
  { path: '/newsletter/confirmed', name: 'newsletter-confirmed', h1: /^You're subscribed$/ },
  {
    path: '/newsletter/unsubscribed',
    name: 'newsletter-unsubscribed',
    h1: /^You're unsubscribed$/,
  },
  {
    path: '/newsletter/invalid-link',
    name: 'newsletter-invalid-link',
    h1: /^This link is not valid$/,
  },
];

const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 360, height: 740 },
] as const;

let site: SiteServer;
let browser: Browser;
/** Each indexable route's title and description as the browser saw them (desktop pass). */
const headSeen = new Map<string, { title: string; description: string | null }>();

async function openPage(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height },
    reducedMotion: 'reduce',
  });
  return waitForAppOnGoto(await context.newPage(), site.url);
}

describe('public site in Chromium', () => {
  beforeAll(async () => {
    const stack = testStack();
    // Its stack's one build of the site, shared with the other browser-test files on that stack.
    site = await serveSite(stack.apiUrl, stack.anonKey, { outDir: testSiteDir() });
    browser = await launchBrowser();
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  for (const viewport of viewports) {
    for (const route of routes) {
      it(
        `${route.path} at ${viewport.name} width: heading, no serious a11y issues`,
        { timeout: 90_000 },
        async () => {
          const page = await openPage(viewport.width, viewport.height);
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          try {
            await page.goto(site.url + route.path, { waitUntil: 'networkidle' });
            const h1 = page.locator('main h1');
            await expect.poll(() => h1.count(), { timeout: 15_000 }).toBe(1);
            expect(await h1.innerText()).toMatch(route.h1);
            expect(await page.locator('h1').count()).toBe(1);
            expect(await page.title()).toContain('tinyback.tools');
            // One title and at most one description, whatever the page before left behind.
            expect(await page.locator('head title').count()).toBe(1);
            expect(await page.locator('head meta[name="description"]').count()).toBeLessThan(2);
            if (NOINDEX.test(route.path)) {
              expect(
                await page.locator('head meta[name="robots"]').getAttribute('content'),
              ).toMatch(/noindex/);
              expect(await page.locator('head link[rel="canonical"]').count()).toBe(0);
            } else {
              expect(await page.locator('head link[rel="canonical"]').getAttribute('href')).toBe(
                siteConfig.url + route.path,
              );
              expect(
                await page.locator('head meta[property="og:image"]').getAttribute('content'),
              ).toBe(`${siteConfig.url}/og-image.png`);
              if (viewport.name === 'desktop') {
                headSeen.set(route.path, {
                  title: await page.title(),
                  description: await page
                    .locator('head meta[name="description"]')
                    .getAttribute('content'),
                });
              }
            }
            // Nothing may stick out sideways on a phone.
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            expect(overflow).toBeLessThanOrEqual(0);

            const results = await new AxeBuilder({ page }).analyze();
            const serious = results.violations
              .filter(
                (violation) => violation.impact === 'serious' || violation.impact === 'critical',
              )
              .flatMap((violation) =>
                violation.nodes.map(
                  (node) =>
                    `${violation.id}: ${node.html.slice(0, 120)} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
                ),
              );
            expect(serious).toEqual([]);
            expect(errors).toEqual([]);
          } finally {
            await page.screenshot({
              path: path.join(SCREENSHOTS, `${route.name}-${viewport.name}.png`),
              fullPage: true,
            });
            await page.context().close();
          }
        },
      );
    }
  }

  it('gives every indexable page its own title and description', () => {
    // Blog posts and docs set theirs from their own content; the rest come from src/config/seo.ts.
    const seen = [...headSeen.values()];
    expect(seen.length).toBeGreaterThanOrEqual(9);
    expect(new Set(seen.map((head) => head.title)).size).toBe(seen.length);
    const described = seen.filter((head) => head.description);
    expect(new Set(described.map((head) => head.description)).size).toBe(described.length);
  });

  it('serves robots.txt, sitemap.xml and the share image as files, not the app', async () => {
    const robots = await fetch(`${site.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toContain(`Sitemap: ${siteConfig.url}/sitemap.xml`);
    const sitemap = await fetch(`${site.url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    expect(await sitemap.text()).toContain(`<loc>${siteConfig.url}/pricing</loc>`);
    const image = await fetch(`${site.url}/og-image.png`);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('draws every brand logo on / from the sprite file', { timeout: 60_000 }, async () => {
    const page = await openPage(1280, 800);
    await page.goto(site.url + '/', { waitUntil: 'networkidle' });
    // The size a <use> draws is its referenced symbol's: 0 × 0 when the file or the id is missing.
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll<SVGUseElement>('use')].map((use) => {
        const box = use.getBBox();
        return { href: use.getAttribute('href'), drawn: box.width > 0 && box.height > 0 };
      }),
    );
    // The ten supported stacks and the footer's three social links.
    expect(drawn).toHaveLength(13);
    expect(drawn.filter((logo) => !logo.drawn)).toEqual([]);
    await page.context().close();
  });

  it('shows /thanks without tinyback navigation or footer, with the way back', async () => {
    const page = await openPage(390, 844);
    // The endpoint's 303 keeps the form page as the referrer.
    await page.goto(site.url + '/thanks', {
      waitUntil: 'networkidle',
      referer: 'http://shop.example.com/contact',
    });
    const back = page.getByRole('link', { name: 'Back to shop.example.com' });
    await expect.poll(() => back.count(), { timeout: 15_000 }).toBe(1);
    expect(await back.getAttribute('href')).toBe('http://shop.example.com');
    expect(await page.getByRole('banner').count()).toBe(0);
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    expect(await page.getByRole('link').count()).toBe(1);
    await page.context().close();
  });

  it('sends an unknown path home', { timeout: 60_000 }, async () => {
    const page = await openPage(1280, 800);
    await page.goto(site.url + '/no/such/page', { waitUntil: 'networkidle' });
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/');
    await page.context().close();
  });

  it('opens and closes the mobile menu with the keyboard', { timeout: 60_000 }, async () => {
    const page = await openPage(360, 740);
    await page.goto(site.url + '/', { waitUntil: 'networkidle' });
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await expect.poll(() => mobileNav.isVisible()).toBe(true);
    await mobileNav.getByRole('link', { name: 'Pricing' }).click();
    // The menu closes once the navigation completes, i.e. after the page's chunk has loaded.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/pricing');
    await expect.poll(() => mobileNav.count(), { timeout: 15_000 }).toBe(0);
    await page.context().close();
  });

  it(
    'subscribes to the newsletter from the footer: pending until the e-mailed link confirms it',
    { timeout: 60_000 },
    async () => {
      const email = `reader-${Date.now()}@example.com`;
      const page = await openPage(1280, 800);
      await page.goto(site.url + '/pricing', { waitUntil: 'networkidle' });
      // The form loads as the footer nears the screen, as it does for a reader scrolling down.
      await page.locator('footer').scrollIntoViewIfNeeded();
      const form = page.locator('form[aria-labelledby="footer-newsletter-title"]');
      await form.getByLabel('Email address').fill(email.toUpperCase());
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect
        .poll(() => form.getByRole('status').textContent(), { timeout: 15_000 })
        .toMatch(/check your inbox and confirm/i);
      expect(await form.getByLabel('Email address').inputValue()).toBe('');

      // The same address again is not an error to the visitor and not a second row.
      await form.getByLabel('Email address').fill(email);
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect.poll(() => form.getByRole('status').count(), { timeout: 15_000 }).toBe(1);
      expect(await form.getByRole('alert').count()).toBe(0);

      const db = new pg.Client({ connectionString: testStack().dbUrl });
      await db.connect();
      try {
        // The footer signs up to the site's own list (the seed marks the site account's).
        const stored = () =>
          db
            .query(
              `select s.email, s.status from public.list_subscribers s
                 join public.newsletter_lists l on l.id = s.list_id
                where l.site_list and lower(s.email) = $1`,
              [email],
            )
            .then((r) => r.rows);
        expect(await stored()).toEqual([{ email, status: 'pending' }]);

        // The e-mail's link opens the site's page (here on the test build's own origin), which
        // confirms only when its button is pressed.
        const mail = await waitForMailTo(email, /confirm your subscription to/i);
        const confirm = linksIn(mail).find((link) => link.includes('/newsletter/confirm?'));
        expect(confirm).toBeDefined();
        const link = new URL(confirm!);
        await page.goto(site.url + link.pathname + link.search, { waitUntil: 'networkidle' });
        const h1 = page.locator('main h1');
        await expect
          .poll(() => h1.textContent(), { timeout: 15_000 })
          .toBe('Confirm your subscription');
        expect(await stored()).toEqual([{ email, status: 'pending' }]);
        await page.getByRole('button', { name: 'Confirm subscription' }).click();
        await expect
          .poll(() => h1.textContent(), { timeout: 15_000 })
          .toMatch(/^You're subscribed to /);
        // The token left the address bar, and the outcome's heading has the focus.
        expect(new URL(page.url()).pathname).toBe('/newsletter/confirm');
        expect(new URL(page.url()).search).toBe('?list=1');
        expect(await h1.evaluate((el) => el === document.activeElement)).toBe(true);
        expect(await stored()).toEqual([{ email, status: 'confirmed' }]);
      } finally {
        await db.end();
        await page.context().close();
      }
    },
  );

  it(
    "posts /custom's project enquiry to the site's own tinyback form: stored and e-mailed",
    { timeout: 60_000 },
    async () => {
      const name = `Grace ${Date.now()}`;
      const db = new pg.Client({ connectionString: testStack().dbUrl });
      await db.connect();
      const page = await openPage(390, 844);
      try {
        // The seeded form allows the development site; a deployment sets its own origin, as the
        // test build's server does here.
        await db.query('update public.forms set allowed_origin = $1 where id = $2', [
          site.url,
          CUSTOM_ENQUIRY_FORM_ID,
        ]);
        await page.goto(site.url + '/custom', { waitUntil: 'networkidle' });
        // Both calls to action lead to the form, none to a mail program.
        expect(await page.locator('a[href^="mailto:"]', { hasText: /project/i }).count()).toBe(0);
        await page.getByRole('link', { name: 'Tell us about your project' }).click();
        const form = page.getByRole('form', { name: 'Tell us about your project' });
        await form.getByRole('button', { name: 'Send project details' }).click();
        await expect
          .poll(() => form.getByText('Please tell us your name.').count(), { timeout: 15_000 })
          .toBe(1);
        await form.getByLabel('Name').fill(name);
        await form.getByLabel('Email').fill('grace@example.com');
        await form.getByLabel('Your project').fill('A booking site for a small hotel.');
        await form.getByRole('button', { name: 'Send project details' }).click();
        // Whichever answer arrives first: the confirmation, or the endpoint's refusal (shown).
        const outcome = page
          .getByRole('status')
          .filter({ hasText: 'We have your project' })
          .or(form.getByRole('alert'));
        await expect.poll(() => outcome.count(), { timeout: 15_000 }).toBe(1);
        expect(await outcome.innerText()).toMatch(/We have your project details/);

        const { rows } = await db.query(
          `select name, email, message, is_spam from public.entries where form_id = $1 and name = $2`,
          [CUSTOM_ENQUIRY_FORM_ID, name],
        );
        expect(rows).toEqual([
          {
            name,
            email: 'grace@example.com',
            message: 'A booking site for a small hotel.',
            is_spam: false,
          },
        ]);
        const mail = await waitForMailTo(siteConfig.contactEmail, new RegExp(name));
        expect(mail.text ?? mail.html).toContain('A booking site for a small hotel.');
      } finally {
        await db.end();
        await page.context().close();
      }
    },
  );
});
