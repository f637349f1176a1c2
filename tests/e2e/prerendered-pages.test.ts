// The prerendered public pages (scripts/prerender.ts) in real Chromium against the shared
// production build: each shows its heading, title and styles with JavaScript switched off;
// with JavaScript the app hydrates the same markup without a mismatch or any error and then
// answers clicks; another address served the home page's file (a host's fallback) never shows
// the home page; and a signed-in visitor's header switches to the signed-in links after hydration.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PRERENDER_TARGETS } from '../support/prerendered';
import { APP_READY_ATTRIBUTE } from '../../src/config/prerender';
import { signedInUser } from './support/auth';
import { useE2e } from './support/session';

/**
 * Where the page's headings stand once the fonts are in: what a layout shift would move. (Only
 * headings: the blog's post cards replace their placeholders when the posts arrive.)
 */
async function blockBoxes(page: Page): Promise<string[]> {
  await page.evaluate(() => document.fonts.ready);
  return page.$$eval('main h1, main h2', (elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return `${element.tagName} x=${Math.round(box.x)} y=${Math.round(box.y)} h=${Math.round(box.height)}`;
    }),
  );
}

/** Console errors and uncaught exceptions: a hydration mismatch shows up as one of them. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

describe('prerendered pages', () => {
  const e2e = useE2e('prerendered');

  for (const target of PRERENDER_TARGETS) {
    it(`${target.path}: painted without JavaScript, hydrated without a mismatch`, async () => {
      const context = await e2e.browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: 390, height: 844 },
      });
      const staticPage = await context.newPage();
      await staticPage.goto(e2e.url + target.path);
      expect(await staticPage.locator('main h1').innerText()).toMatch(target.h1);
      expect(await staticPage.title()).toBe(target.title);
      // Styled: the heading has the theme's font, not the browser's default serif.
      const font = await staticPage
        .locator('main h1')
        .evaluate((element) => getComputedStyle(element).fontFamily);
      expect(font).toMatch(/^"Inter Variable"/);
      const staticBoxes = await blockBoxes(staticPage);
      await context.close();

      const page = await e2e.newPage({ width: 390, height: 844 });
      const errors = collectErrors(page);
      await page.goto(target.path);
      expect(await page.locator('main h1').innerText()).toMatch(target.h1);
      expect(await page.locator('head title').count()).toBe(1);
      expect(await page.title()).toBe(target.title);
      // The app takes the page over without moving anything (the styles it brings, or moves,
      // change nothing the markup had drawn).
      expect(await blockBoxes(page)).toEqual(staticBoxes);
      // The mobile menu opens: the header is live, not just markup.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Mobile' }).isVisible())
        .toBe(true);
      expect(errors).toEqual([]);
    });
  }

  it('another address served the home page file shows its own page, not the home page', async () => {
    // Static hosts answer unknown paths with index.html, which holds the home page. Until the
    // app's scripts have run (here: never, they are blocked), that markup stays hidden.
    const context = await e2e.browser.newContext();
    const staticPage = await context.newPage();
    await staticPage.route('**/assets/*.js', (route) => route.abort());
    await staticPage.goto(e2e.url + '/login');
    expect(await staticPage.locator('main h1').textContent()).toMatch(/The form backend/);
    expect(await staticPage.locator('main h1').isVisible()).toBe(false);
    // At its own address the same file shows the home page, scripts or not.
    await staticPage.goto(e2e.url + '/');
    expect(await staticPage.locator('main h1').isVisible()).toBe(true);
    await context.close();

    const page = await e2e.newPage();
    const errors = collectErrors(page);
    await page.goto('/login');
    await expect.poll(() => page.locator('main h1').innerText()).toBe('Welcome back');
    expect(await page.locator('main h1').isVisible()).toBe(true);
    // The home page's head elements went with its markup.
    expect(await page.locator('head title').count()).toBe(1);
    expect(await page.title()).toMatch(/^Login/);
    expect(await page.locator('head link[rel="canonical"]').getAttribute('href')).toMatch(
      /\/login$/,
    );
    expect(errors).toEqual([]);
    expect(await page.locator(`html[${APP_READY_ATTRIBUTE}]`).count()).toBe(1);
  });

  it('shows a signed-in visitor the signed-in header once the page is hydrated', async () => {
    const page = await e2e.newPage();
    const errors = collectErrors(page);
    await signedInUser(page, 'Prerender Reader');

    await page.goto('/pricing');
    // The file shows the visitor's header; after hydration the stored session replaces it.
    const header = page.locator('header');
    await expect
      .poll(() => header.getByRole('button', { name: 'Open profile menu' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("keeps the markup's ids on hydration: /pricing's billing toggle marks the chosen cycle", async () => {
    // Chakra's parts find each other by the ids React's useId gives them. Hydration keeps the
    // markup's ids, so a client tree that differs from the server's (and so counts ids
    // differently) leaves every lookup empty: the toggle's indicator would stay hidden.
    const page = await e2e.newPage();
    await page.goto('/pricing');
    const indicator = page.locator('[data-scope="segment-group"][data-part="indicator"]');
    const shown = () =>
      indicator.evaluate(
        (el) => !(el as HTMLElement).hidden && el.getBoundingClientRect().width > 0,
      );
    await expect.poll(shown, { timeout: 15_000 }).toBe(true);
    // Over the chosen item: monthly, the default.
    const chosen = page.locator(
      '[data-scope="segment-group"][data-part="item"][data-state="checked"]',
    );
    expect(await chosen.textContent()).toBe('Monthly');
    const [box, chosenBox] = [await indicator.boundingBox(), await chosen.boundingBox()];
    expect(Math.abs(box!.x - chosenBox!.x)).toBeLessThan(2);
    expect(Math.abs(box!.width - chosenBox!.width)).toBeLessThan(2);
  });

  it('styles the profile menu on /, where no lazy page brought the later recipes', async () => {
    const page = await e2e.newPage();
    const errors = collectErrors(page);
    await signedInUser(page, 'Menu Reader');

    await page.goto('/');
    await page.getByRole('button', { name: 'Open profile menu' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    // Chakra adds a part's class only when the system has the part's recipe.
    expect(await menu.getAttribute('class')).toContain('chakra-menu__content');
    const style = await menu.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(style).not.toBe('rgba(0, 0, 0, 0)');
    expect(errors).toEqual([]);
  });
});
