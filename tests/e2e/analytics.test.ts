// The analytics dashboard end to end in Chromium: an owner adds their site on the dashboard and
// gets its snippet ("No data yet — here is your snippet"); a visitor's page views on three paths
// and a custom event reach the collect endpoint; the owner's open dashboard shows them — "visitors
// now" live over Realtime, without a reload, then the pages and the event — and a click on a page
// filters every number by it, in the URL. The events are posted as the tracker posts them (its
// JSON, text/plain, a desktop browser's agent); the tracker in a page is tests/e2e/
// analytics-tracker.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { TRACKER_OPTIONS } from '../../src/config/analytics-tracker';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { startThirdPartySite, type ThirdPartySite } from './support/third-party-site';

/** A desktop Chrome's user agent (the endpoint drops headless and other bots' events). */
const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The page the events say they come from: a host the site lists. */
const SHOP = 'https://shop.example.com';

/** A customer's single-page app: links change the page with pushState; a button sends an event. */
function shopPage(snippet: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title>${snippet}</head>
<body>
<nav>
  <a href="/shop/shoes" data-spa>Shoes</a>
  <a href="/shop/hats" data-spa>Hats</a>
  <a href="/shop/bags" data-spa>Bags</a>
</nav>
<main><h1>Shop</h1><button type="button" id="signup">Sign up</button></main>
<script>
  document.addEventListener('click', function (event) {
    var link = event.target.closest('a[data-spa]');
    if (!link) return;
    event.preventDefault();
    history.pushState({}, '', link.getAttribute('href'));
    document.querySelector('h1').textContent = link.textContent;
  });
  document.getElementById('signup').addEventListener('click', function () {
    tinyback('signup', { plan: 'free' });
  });
</script>
</body>
</html>`;
}

describe('analytics dashboard in Chromium', () => {
  const e2e = useE2e('analytics');
  let shop: ThirdPartySite;
  let visitorContext: BrowserContext | undefined;

  beforeAll(async () => {
    shop = await startThirdPartySite();
  });
  afterAll(async () => {
    await visitorContext?.close();
    await shop?.close();
  });

  it(
    "shows a visitor's page views and event in the owner's open dashboard, live, and filters by a page",
    { timeout: 180_000 },
    async () => {
      const owner = await e2e.newPage();
      await signedInUser(owner, 'Owner Ada');
      await owner.goto('/dashboard/analytics');
      await owner.getByRole('heading', { name: 'No sites yet' }).waitFor();
      const form = owner.getByRole('form', { name: 'Add a site' });
      await form.getByLabel('Site name').fill('Shop');
      // Pasted as an address; the host is what is kept.
      await form.getByLabel('Domains').fill(`${SHOP}/pricing`);
      await form.getByRole('button', { name: 'Add site' }).click();
      await owner.getByRole('heading', { name: 'No data yet — here is your snippet' }).waitFor();
      await owner.getByText('shop.example.com · raw events kept 395 days').waitFor();
      await owner.getByText('0 visitors now').waitFor();
      await e2e.shot(owner, 'snippet');
      const snippet = (await owner.locator('figure pre code').first().textContent()) ?? '';
      const [, siteId, api] =
        /^<script defer src="[^"]+\/tb\.js" data-site="([0-9a-f-]{36})" data-api="([^"]+\/functions\/v1\/analytics\/collect)"><\/script>$/.exec(
          snippet,
        ) ?? [];
      expect(siteId, snippet).toBeTruthy();
      expect(snippet.startsWith(`<script defer src="${e2e.url}/tb.js"`)).toBe(true);

      const send = async (name: string, path: string) => {
        const response = await fetch(api, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': DESKTOP_CHROME },
          body: JSON.stringify({
            s: siteId,
            n: name,
            u: `${SHOP}${path}`,
            r: '',
            w: 1280,
            z: 'UTC',
          }),
        });
        expect(response.status, `${name} ${path}`).toBe(202);
      };
      for (const path of ['/', '/pricing', '/docs', '/about']) await send('pageview', path);
      await send('signup', '/about');

      // The owner's page was never reloaded: "visitors now" arrives over Realtime, and the stats
      // are read again after it.
      await owner.getByText('1 visitor now').waitFor({ timeout: 30_000 });
      const pages = owner.getByRole('table', { name: /^Top pages/ });
      await pages.getByRole('button', { name: '/about' }).waitFor({ timeout: 30_000 });
      for (const path of ['/', '/pricing', '/docs']) {
        await pages.getByRole('button', { name: path, exact: true }).waitFor();
      }
      const events = owner.getByRole('table', { name: /^Custom events/ });
      await events.getByRole('button', { name: 'signup' }).waitFor();
      const totals = owner.getByLabel('Totals');
      await expect
        .poll(() => totals.textContent())
        .toMatch(/^Visitors1.*Visits1.*Page views4.*Events1/);
      await e2e.shot(owner, 'live-stats');

      await pages.getByRole('button', { name: '/pricing' }).click();
      await owner.getByRole('button', { name: 'Remove filter Page: /pricing' }).waitFor();
      expect(new URL(owner.url()).searchParams.get('page')).toBe('/pricing');
      await expect.poll(() => totals.textContent()).toMatch(/Page views1/);
      await e2e.shot(owner, 'filtered');
    },
  );

  it(
    "shows the snippet's page views, navigations and event from another site live, keeping nothing on the visitor's device",
    { timeout: 180_000 },
    async () => {
      const owner = await e2e.newPage();
      await signedInUser(owner, 'Owner Shop');
      await owner.goto('/dashboard/analytics');
      const form = owner.getByRole('form', { name: 'Add a site' });
      await form.getByLabel('Site name').fill('Customer shop');
      // The customer's site runs on 127.0.0.1 (its port is not part of a domain).
      await form.getByLabel('Domains').fill(new URL(shop.origin).hostname);
      await form.getByRole('button', { name: 'Add site' }).click();
      await owner.getByRole('heading', { name: 'No data yet — here is your snippet' }).waitFor();
      const snippet = (await owner.locator('figure pre code').first().textContent()) ?? '';
      expect(snippet).toContain(`${e2e.url}/tb.js`);

      // The tracker skips 127.0.0.1 and automated browsers unless the page says it is a test.
      shop.setPage(
        '/shop',
        shopPage(snippet.replace('></script>', ` ${TRACKER_OPTIONS.local}></script>`)),
      );
      // A desktop browser's user agent: the endpoint drops headless browsers as bots.
      visitorContext = await e2e.browser.newContext({ userAgent: DESKTOP_CHROME });
      const visitor = await visitorContext.newPage();
      const answers: string[] = [];
      visitor.on('response', (response) => {
        if (response.url().includes('/functions/v1/analytics/collect'))
          answers.push(String(response.status()));
      });
      await visitor.goto(`${shop.origin}/shop`);
      await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(1);
      for (const name of ['Shoes', 'Hats', 'Bags']) {
        await visitor.getByRole('link', { name }).click();
        await expect.poll(() => visitor.url()).toBe(`${shop.origin}/shop/${name.toLowerCase()}`);
      }
      await visitor.getByRole('button', { name: 'Sign up' }).click();
      await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(5);
      expect(answers).toEqual(['202', '202', '202', '202', '202']);

      // The owner's open dashboard, never reloaded: visitors now, the four pages and the event.
      await owner.getByText('1 visitor now').waitFor({ timeout: 30_000 });
      const pages = owner.getByRole('table', { name: /^Top pages/ });
      await pages.getByRole('button', { name: '/shop/bags' }).waitFor({ timeout: 30_000 });
      for (const path of ['/shop', '/shop/shoes', '/shop/hats'])
        await pages.getByRole('button', { name: path, exact: true }).waitFor();
      const events = owner.getByRole('table', { name: /^Custom events/ });
      await events.getByRole('button', { name: 'signup' }).waitFor();
      await e2e.shot(owner, 'tracker-live');

      // Nothing kept on the visitor's device.
      expect(await visitorContext.cookies()).toEqual([]);
      expect(
        await visitor.evaluate(() => ({
          cookie: document.cookie,
          local: localStorage.length,
          session: sessionStorage.length,
        })),
      ).toEqual({ cookie: '', local: 0, session: 0 });
    },
  );
});
