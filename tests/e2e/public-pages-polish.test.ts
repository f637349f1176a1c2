// The public pages' finish on a phone (390 px) and a desktop (1280 px), in real Chromium against
// the real local stack: a screenshot of each main page at 390 px (nothing sticking out sideways;
// axe at 390 px, which public-site.test.ts does not cover), and the layout rules of the docs and the blog measured in
// the browser — code chips on one line, the table of contents folded behind a keyboard-operable
// disclosure, long code scrolling with a cue, the blog's search before its posts, no layout shift
// while the posts load, a working copy button on code blocks, tables that scroll, and a post page
// that does not reload the list.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/a11y';
import { useE2e } from './support/session';

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

const PAGES = [
  { path: '/', name: 'home' },
  { path: '/pricing', name: 'pricing' },
  { path: '/docs', name: 'docs' },
  { path: '/blog', name: 'blog' },
  { path: '/thanks', name: 'thanks' },
] as const;

const LIST_SELECT = 'id,title,category,excerpt,image_url,created_at';

/** Every blog_posts request the page makes, as its decoded `select` list (spaces removed). */
function recordBlogSelects(page: Page): string[] {
  const selects: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.endsWith('/rest/v1/blog_posts')) return;
    selects.push((url.searchParams.get('select') ?? '').replace(/\s+/g, ''));
  });
  return selects;
}

async function open(page: Page, path: string) {
  await page.goto(path, { waitUntil: 'networkidle' });
  await expect.poll(() => page.locator('h1').count(), { timeout: 15_000 }).toBe(1);
}

describe('public pages on a phone and a desktop', () => {
  const e2e = useE2e('polish');

  // At 1280 px public-site.test.ts already measures every page for sideways scrolling and takes
  // its screenshot; 390 px is this file's.
  for (const target of PAGES) {
    it(
      `${target.path} at 390 px: screenshot, nothing sideways, no serious a11y issue`,
      { timeout: 90_000 },
      async () => {
        const page = await e2e.newPage({ width: 390, height: 844 });
        await open(page, target.path);
        if (target.path === '/blog') {
          await page
            .getByRole('region', { name: 'Latest posts' })
            .locator('article')
            .first()
            .waitFor();
        }
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        // public-site.test.ts runs axe on every route at 1280 and 360 px; 390 is this file's.
        expect(await seriousViolations(page)).toEqual([]);
        await e2e.shot(page, `${target.name}-390`);
      },
    );
  }

  it('docs at 390 px: code chips stay on one line', { timeout: 60_000 }, async () => {
    const page = await e2e.newPage({ width: 390, height: 844 });
    await open(page, '/docs');
    const chip = page
      .getByRole('table', { name: 'Error statuses and codes' })
      .locator('code', { hasText: /^origin_not_allowed$/ });
    const lines = await chip.evaluate((el) => {
      const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
      return {
        rects: el.getClientRects().length,
        height: el.getBoundingClientRect().height,
        lineHeight,
      };
    });
    expect(lines.rects).toBe(1);
    expect(lines.height).toBeLessThan(lines.lineHeight * 1.5);

    // Every one-word chip in the text, not only that one: none is broken over lines.
    const broken = await page.evaluate(() =>
      Array.from(document.querySelectorAll('main code'))
        // A chip without spaces or slashes has nowhere it may wrap.
        .filter((el) => !el.closest('pre') && !/[\s/]/.test(el.textContent ?? ''))
        .filter((el) => {
          const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
          return el.getBoundingClientRect().height > lineHeight * 1.5;
        })
        .map((el) => el.textContent),
    );
    expect(broken).toEqual([]);
    // And no raw backtick outside code samples.
    const backticks = await page.evaluate(() => {
      const main = document.querySelector('main')!.cloneNode(true) as HTMLElement;
      main.querySelectorAll('pre').forEach((pre) => pre.remove());
      return main.textContent?.includes('`');
    });
    expect(backticks).toBe(false);
  });

  it(
    'docs at 390 px: the table of contents is a keyboard disclosure',
    { timeout: 60_000 },
    async () => {
      const page = await e2e.newPage({ width: 390, height: 844 });
      await open(page, '/docs');
      const toc = page.getByRole('navigation', { name: 'On this page' });
      const toggle = toc.getByRole('button', { name: 'On this page' });
      const faq = toc.getByRole('link', { name: 'FAQ' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await faq.isVisible()).toBe(false);

      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => faq.isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);

      await page.keyboard.press('Space');
      await faq.click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#faq');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await e2e.shot(page, 'docs-toc-after-link-390');

      // From the large breakpoint up the list is always there, without a button.
      const desktop = await e2e.newPage({ width: 1280, height: 800 });
      await open(desktop, '/docs');
      const desktopToc = desktop.getByRole('navigation', { name: 'On this page' });
      expect(await desktopToc.getByRole('button').isVisible()).toBe(false);
      expect(await desktopToc.getByRole('link', { name: 'FAQ' }).isVisible()).toBe(true);
    },
  );

  it(
    'docs at 390 px: long code lines scroll sideways with a cue and by keyboard',
    { timeout: 60_000 },
    async () => {
      const page = await e2e.newPage({ width: 390, height: 844 });
      await open(page, '/docs');
      const region = page.getByRole('region', { name: 'HTML form code' });
      const figure = region.locator('xpath=..');
      // The cues follow the code's measured overflow, which settles once the page has hydrated
      // and its font has arrived.
      await expect.poll(() => figure.locator('[data-scroll-cue="end"]').isVisible()).toBe(true);
      expect(await figure.locator('[data-scroll-cue="start"]').count()).toBe(0);
      await region.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      await expect.poll(() => figure.locator('[data-scroll-cue="start"]').count()).toBe(1);
      await e2e.shot(page, 'docs-code-scrolled-390');
    },
  );

  for (const { width, height } of WIDTHS) {
    it(
      `blog at ${width} px: layout shift under 0.05 over the whole load; search first on a phone`,
      { timeout: 60_000 },
      async () => {
        const page = await e2e.newPage({ width, height });
        // Every shift not caused by input, with its time, from the first paint on (the whole load,
        // as CLS counts it for a page this short); and the moment the blog page itself is on
        // screen (its skeleton), so the blog's own share can be told from the shared layout's.
        await page.addInitScript(() => {
          const w = window as unknown as {
            __shifts: { at: number; value: number }[];
            __blogShown: number | null;
          };
          w.__shifts = [];
          w.__blogShown = null;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[]) {
              if (!entry.hadRecentInput)
                w.__shifts.push({ at: entry.startTime, value: entry.value });
            }
          }).observe({ type: 'layout-shift', buffered: true });
          const seen = new MutationObserver(() => {
            if (!document.querySelector('[data-testid="post-grid-skeleton"]')) return;
            seen.disconnect();
            // After the frame that first paints the page: a shift in that frame is the shared
            // layout's (its loading placeholder giving way to the page), not the blog's.
            requestAnimationFrame(() =>
              requestAnimationFrame(() => (w.__blogShown = performance.now())),
            );
          });
          seen.observe(document, { childList: true, subtree: true });
        });
        // The list's answer is held until the skeletons are on screen, so the swap from
        // skeletons to posts is always part of what is measured.
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/rest/v1/blog_posts*', async (route) => {
          await released;
          await route.continue();
        });
        await page.goto('/blog');
        await page.getByTestId('post-grid-skeleton').waitFor();
        await expect
          .poll(() =>
            page.evaluate(() => (window as unknown as { __blogShown: unknown }).__blogShown),
          )
          .not.toBeNull();
        release();
        const posts = page.getByRole('region', { name: 'Latest posts' });
        await posts.locator('article').first().waitFor();
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => document.fonts.ready);
        const { total, blogShift } = await page.evaluate(() => {
          const w = window as unknown as {
            __shifts: { at: number; value: number }[];
            __blogShown: number | null;
          };
          const sum = (shifts: { value: number }[]) => shifts.reduce((a, s) => a + s.value, 0);
          const from = w.__blogShown ?? 0;
          return { total: sum(w.__shifts), blogShift: sum(w.__shifts.filter((s) => s.at >= from)) };
        });
        // Skeletons, hero and sidebar hold the posts' final size: loading them moves nothing...
        expect(blogShift, 'shift once the blog page is on screen').toBeLessThan(0.05);
        // ...and the whole load, the page's chunk and web font included, stays under the budget.
        expect(total, 'shift over the whole load').toBeLessThan(0.05);

        if (width < 1000) {
          const search = page.getByRole('searchbox', { name: 'Search posts' });
          const firstPost = posts.locator('article').first();
          const [searchBox, postBox] = [await search.boundingBox(), await firstPost.boundingBox()];
          expect(searchBox!.y + searchBox!.height).toBeLessThanOrEqual(postBox!.y);
          const categories = page.getByRole('navigation', { name: 'Categories' });
          expect((await categories.boundingBox())!.y).toBeLessThan(postBox!.y);
          const searchFirst = await search.evaluate(
            (input, article) =>
              Boolean(input.compareDocumentPosition(article!) & Node.DOCUMENT_POSITION_FOLLOWING),
            await firstPost.elementHandle(),
          );
          expect(searchFirst).toBe(true);
        }
      },
    );
  }

  it(
    'blog post: opened from the list it loads only its body; code blocks copy; tables scroll at 390 px',
    { timeout: 60_000 },
    async () => {
      const page = await e2e.newPage({
        width: 390,
        height: 844,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      const selects = recordBlogSelects(page);
      await open(page, '/blog');
      await expect.poll(() => selects).toEqual([LIST_SELECT]);
      const posts = page.getByRole('region', { name: 'Latest posts' });
      await posts.getByRole('link', { name: /Add a contact form to a static site/ }).click();
      await page.getByRole('button', { name: 'Copy: HTML code' }).first().waitFor();
      await page.waitForLoadState('networkidle');
      // The list once (the list page's), then the one post with its body.
      expect(selects).toEqual([LIST_SELECT, `${LIST_SELECT},content`]);

      // The button's name changes to 'Copied: …', so it is found through its (first) code block.
      const block = page
        .getByRole('article')
        .locator('figure', { has: page.locator('pre') })
        .first();
      const copy = block.getByRole('button', { name: /^(Copy|Copied): HTML code$/ });
      const shown = await block.locator('pre').innerText();
      await copy.click();
      await expect.poll(() => copy.textContent()).toContain('Copied');
      expect(await copy.getAttribute('aria-label')).toBe('Copied: HTML code');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.trim()).toBe(shown.trim());
      expect(copied).toContain('<form');
      await e2e.shot(page, 'blog-post-code-copied-390');

      // The body's table keeps readable columns and scrolls, instead of a word a line.
      const table = page.getByRole('article').locator('table').first();
      const narrowest = await table.evaluate((el) =>
        Math.min(
          ...Array.from(el.querySelectorAll('th, td')).map((c) => c.getBoundingClientRect().width),
        ),
      );
      expect(narrowest).toBeGreaterThanOrEqual(90);
      const scroller = table.locator('xpath=ancestor::*[@data-scrollable="true"][1]');
      expect(await scroller.getAttribute('role')).toBe('region');
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await e2e.shot(page, 'blog-post-390');
    },
  );
});
