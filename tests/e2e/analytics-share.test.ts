// A site's public share link end to end in Chromium: the owner creates it under Share on the
// analytics dashboard and copies its URL; a fresh browser context without a session (a phone's
// 390 px) opens it and sees the site's name and stats, filters by a page and passes axe; after
// the owner revokes it, the same URL shows "This link no longer works" with a way home.
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { seriousViolations } from './support/a11y';

/** A desktop Chrome's user agent (the endpoint drops headless and other bots' events). */
const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SHOP = 'https://shared-shop.example.com';

describe('analytics share link in Chromium', () => {
  const e2e = useE2e('analytics-share');

  it(
    'shows the stats to anyone with the link, until the owner revokes it',
    { timeout: 180_000 },
    async () => {
      const owner = await e2e.newPage();
      await signedInUser(owner, 'Owner Lin');
      await owner.goto('/dashboard/analytics');
      const form = owner.getByRole('form', { name: 'Add a site' });
      await form.getByLabel('Site name').fill('Shared shop');
      await form.getByLabel('Domains').fill(new URL(SHOP).hostname);
      await form.getByRole('button', { name: 'Add site' }).click();
      await owner.getByRole('heading', { name: 'No data yet — here is your snippet' }).waitFor();
      const snippet = (await owner.locator('figure pre code').first().textContent()) ?? '';
      const [, siteId, api] =
        /data-site="([0-9a-f-]{36})" data-api="([^"]+\/functions\/v1\/analytics\/collect)"/.exec(
          snippet,
        ) ?? [];
      expect(siteId, snippet).toBeTruthy();
      for (const path of ['/', '/pricing', '/pricing']) {
        const response = await fetch(api!, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': DESKTOP_CHROME },
          body: JSON.stringify({ s: siteId, n: 'pageview', u: `${SHOP}${path}`, r: '', w: 1280 }),
        });
        expect(response.status).toBe(202);
      }

      await owner.getByRole('button', { name: 'Share' }).click();
      await owner.getByRole('button', { name: 'Create a public link' }).click();
      const field = owner.getByLabel('Anyone with this link can see the stats');
      await expect.poll(() => field.inputValue(), { timeout: 15_000 }).toMatch(/\/share\//);
      const url = await field.inputValue();
      expect(url).toMatch(new RegExp(`^${e2e.url}/share/analytics/[A-Za-z0-9_-]{43}$`));
      await owner.getByText('Public link created').first().waitFor();
      await owner.getByRole('button', { name: 'Copy: public link' }).waitFor();
      await e2e.shot(owner, 'owner-link');

      // A fresh context: no session, a phone's width.
      const visitor = await e2e.newPage({ width: 390, height: 844 });
      await visitor.goto(url);
      await visitor.getByRole('heading', { name: 'Shared shop', level: 1 }).waitFor();
      await visitor.getByText('shared-shop.example.com', { exact: false }).first().waitFor();
      expect(await visitor.locator('meta[name="robots"]').getAttribute('content')).toBe(
        'noindex, nofollow',
      );
      const totals = visitor.getByLabel('Totals');
      await expect.poll(() => totals.textContent(), { timeout: 20_000 }).toMatch(/Page views3/);
      await visitor.getByText('1 visitor now').waitFor({ timeout: 20_000 });
      // Nothing of the owner's: no snippet, no site management.
      expect(await visitor.getByRole('button', { name: 'Snippet' }).count()).toBe(0);
      expect(await visitor.getByRole('button', { name: 'Delete site' }).count()).toBe(0);
      const pages = visitor.getByRole('table', { name: /^Top pages/ });
      await pages.getByRole('button', { name: '/pricing' }).click();
      await visitor.getByRole('button', { name: 'Remove filter Page: /pricing' }).waitFor();
      await expect.poll(() => totals.textContent()).toMatch(/Page views2/);
      expect(
        await visitor.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(390);
      expect(await seriousViolations(visitor)).toEqual([]);
      await e2e.shot(visitor, 'shared-stats');

      await owner.getByRole('button', { name: 'Revoke' }).click();
      const dialog = owner.getByRole('alertdialog', { name: 'Revoke the public link?' });
      await dialog.getByRole('button', { name: 'Revoke' }).click();
      await owner.getByText('Public link revoked').first().waitFor();
      await owner.getByRole('button', { name: 'Create a public link' }).waitFor();

      await visitor.reload();
      await visitor.getByRole('heading', { name: 'This link no longer works' }).waitFor();
      await visitor.getByRole('link', { name: 'Back to the home page' }).waitFor();
      expect(await seriousViolations(visitor)).toEqual([]);
      await e2e.shot(visitor, 'revoked');
    },
  );
});
