// The app survives outages and tells the truth, in Chromium.
//
// Chunks: a page whose chunk cannot be loaded shows an error panel with ways out (and 'Try again'
// loads it once it can), a chunk gone after a deploy is answered by one reload and never a loop,
// and a toast renderer that cannot be loaded tells the toast in words instead of taking the page
// down.
//
// The API: the browser's way to the API is cut (support/api-switch.ts: connections refused, or
// accepted and never answered) while the stack runs on. The live indicator says 'Offline', the New
// Form dialog's Create ends with a visible error within the request timeout, a reload shows the
// inbox's error state within seconds; and when the API is back, the indicator goes live and the
// inbox shows what arrived meanwhile without anyone pressing 'Try again'.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page, Request, Route } from 'playwright-core';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { fillCreateDialog } from './support/forms';
import { markPage, messageCard, openMessagesTab, pageMarker } from './support/messages';
import { submitToForm } from './support/seed';
import { startApiSwitch, type ApiSwitch } from './support/api-switch';
import { createForm } from '../support/supabase-users';
import { testStack } from '../support/stack.ts';

const ORIGIN = 'https://shop.example.com';
/** The pricing page's chunk (and its retries, `?retry=N`). */
const PRICING_CHUNK = '**/assets/pricing-page-*';
const TOASTER_CHUNK = '**/assets/toaster-view-*';
/** src/lib/fetch-with-timeout.ts REQUEST_TIMEOUT_MS. */
const REQUEST_TIMEOUT_MS = 12_000;

/** The routed page's own heading (the pricing page's, whatever its words). */
const pageHeading = (page: Page) => page.locator('main h1').first();

/** The page's error panel (src/components/fallbacks.tsx). */
const errorPanel = (page: Page) => page.locator('[data-error-panel]');

/** The live indicator that is on screen (sidebar from 1024 px, the bar above the page below). */
const indicator = (page: Page, status: 'live' | 'offline' | 'reconnecting') =>
  page.locator(`[data-live-status="${status}"]`).filter({ visible: true });

/** Requests for a chunk, as they reach the route (retries included). */
function recordRequests(page: Page, pattern: RegExp): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (pattern.test(request.url())) seen.push(request);
  });
  return seen;
}

describe('outages in Chromium', () => {
  const e2e = useE2e('outages');
  let apiSwitch: ApiSwitch | undefined;

  afterEach(async () => {
    await apiSwitch?.close();
    apiSwitch = undefined;
  });

  /** A page whose way to the API goes through a switch; the site itself is reached directly. */
  async function switchedPage(): Promise<{ page: Page; api: ApiSwitch }> {
    const api = await startApiSwitch(testStack().apiUrl);
    apiSwitch = api;
    const site = new URL(e2e.url);
    const page = await e2e.newPage({ proxy: { ...api.proxy, bypass: site.host } });
    return { page, api };
  }

  it(
    'shows the error panel with its ways out when a page cannot be loaded, and recovers',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage();
      await page.goto('/');
      const requests = recordRequests(page, /\/assets\/pricing-page-/);
      // The network drops for this page's chunk: every try fails.
      await page.route(PRICING_CHUNK, (route) => route.abort('connectionreset'));
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Pricing' })
        .click();

      const panel = errorPanel(page);
      await panel.waitFor({ timeout: 20_000 });
      const heading = panel.getByRole('heading', {
        level: 1,
        name: 'This page could not be loaded',
      });
      await heading.waitFor();
      // The focus moves to the message, so keyboard and screen-reader users land on it.
      await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
      // The rest of the page stays: the header and its navigation still work.
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
      expect(await panel.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
      expect(await panel.getByRole('button', { name: 'Reload page' }).isVisible()).toBe(true);
      expect(
        await panel.getByRole('link', { name: 'Go to the home page' }).getAttribute('href'),
      ).toBe('/');
      // The chunk was tried again, each time under an address of its own (the browser remembers
      // a failed one), before the panel showed; the site did not answer, so no reload.
      const urls = requests.map((request) => new URL(request.url()).search);
      expect(urls.filter((search) => /^\?retry=\d+$/.test(search)).length).toBeGreaterThanOrEqual(
        2,
      );
      expect(page.url()).toMatch(/\/pricing$/);
      await e2e.shot(page, 'chunk-failed-panel');

      // The network is back: 'Try again' (from the keyboard) loads the page.
      await page.unroute(PRICING_CHUNK);
      await panel.getByRole('button', { name: 'Try again' }).focus();
      await page.keyboard.press('Enter');
      await errorPanel(page).waitFor({ state: 'detached', timeout: 20_000 });
      await pageHeading(page).waitFor();
    },
  );

  it(
    'answers a chunk gone after a deploy with one reload, never a loop',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage();
      let documents = 0;
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents += 1;
      });
      await page.goto('/');
      expect(documents).toBe(1);
      // The site was redeployed: the old version's chunk is gone.
      await page.route(PRICING_CHUNK, (route: Route) =>
        route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
      );
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Pricing' })
        .click();

      // One reload, to the page asked for…
      await expect.poll(() => documents, { timeout: 20_000 }).toBe(2);
      await page.waitForURL(/\/pricing$/);
      // …and, the chunk being gone still, the panel instead of another reload.
      await errorPanel(page).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(3000);
      expect(documents).toBe(2);
      await e2e.shot(page, 'chunk-gone-panel');

      // Published again: 'Reload page' brings it.
      await page.unroute(PRICING_CHUNK);
      await errorPanel(page).getByRole('button', { name: 'Reload page' }).click();
      await errorPanel(page).waitFor({ state: 'detached', timeout: 20_000 });
      await pageHeading(page).waitFor();
    },
  );

  it(
    'tells a toast in words when its renderer cannot be loaded, and the page stays',
    { timeout: 150_000 },
    async () => {
      const { page, api } = await switchedPage();
      const owner = await signedInUser(page, 'Toast Owner');
      const formId = await createForm(owner.client, 'Shop contact', { allowed_origin: ORIGIN });
      await submitToForm(formId, ORIGIN, { name: 'Unread Una', email: 'una@example.org' });
      await openMessagesTab(page);
      const card = messageCard(page, 'Unread Una');
      await card.waitFor();
      await markPage(page, 'inbox');

      // The backend is gone, and with it the toasts' renderer.
      api.set('refuse');
      await page.route(TOASTER_CHUNK, (route) => route.abort('connectionrefused'));
      await card.getByRole('button', { name: 'Mark as read' }).click();

      const toast = page.locator('[data-toast-fallback]');
      await toast.getByText('Could not mark as read').waitFor({ timeout: 20_000 });
      expect(await toast.getAttribute('role')).toBe('status');
      // The page is still there, not reloaded, and nothing was thrown.
      expect(await card.isVisible()).toBe(true);
      expect(await pageMarker(page)).toBe('inbox');
      expect(e2e.errorsOf(page)).toEqual([]);
      await e2e.shot(page, 'toast-in-words');
    },
  );

  it(
    'tells the truth while the API is away, and heals by itself when it is back',
    { timeout: 240_000 },
    async () => {
      const { page, api } = await switchedPage();
      const owner = await signedInUser(page, 'Outage Owner');
      const formId = await createForm(owner.client, 'Shop contact', { allowed_origin: ORIGIN });
      await submitToForm(formId, ORIGIN, { name: 'Before Bea', email: 'bea@example.org' });
      await openMessagesTab(page);
      await messageCard(page, 'Before Bea').waitFor();
      await indicator(page, 'live').waitFor({ timeout: 20_000 });

      // The API goes away: the indicator stops saying 'Live'.
      api.set('refuse');
      await indicator(page, 'offline').waitFor({ timeout: 20_000 });
      expect(await indicator(page, 'offline').innerText()).toBe('Offline');
      await e2e.shot(page, 'offline-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      await indicator(page, 'offline').waitFor();
      await e2e.shot(page, 'offline-390');
      await page.setViewportSize({ width: 1280, height: 800 });

      // Create, while the server accepts the request and never answers: a visible error within
      // the request timeout, not a spinner for ever.
      await page.getByRole('tab', { name: 'Forms' }).click();
      const dialog = await fillCreateDialog(page, {
        name: 'Made while away',
        targetEmail: owner.email,
        allowedOrigin: ORIGIN,
      });
      api.set('hang');
      const started = Date.now();
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      const refusal = dialog.getByRole('alert').filter({ hasText: 'Could not reach the server' });
      await refusal.waitFor({ timeout: REQUEST_TIMEOUT_MS + 10_000 });
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 1000);
      expect(waited).toBeLessThan(REQUEST_TIMEOUT_MS + 10_000);
      expect(await dialog.getByRole('button', { name: 'Create', exact: true }).isEnabled()).toBe(
        true,
      );
      await e2e.shot(page, 'create-timed-out');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      // A reload while the API refuses: the inbox's error state within seconds, and 'Offline'.
      api.set('refuse');
      await page.getByRole('tab', { name: 'Messages' }).click();
      await page.waitForURL(/tab=messages/);
      const reloaded = Date.now();
      await page.reload();
      // Seconds: the query's own tries (1 + 2 s apart), no retries hidden inside supabase-js.
      const failed = page.getByText('Your messages could not be loaded.');
      await failed.waitFor({ timeout: 20_000 });
      expect(Date.now() - reloaded).toBeLessThan(12_000);
      await indicator(page, 'offline').waitFor({ timeout: 20_000 });
      await markPage(page, 'outage');

      // A visitor writes meanwhile; the owner's browser cannot see it yet.
      await submitToForm(formId, ORIGIN, { name: 'During Dora', email: 'dora@example.org' });

      // The API is back: live again, and the inbox reloads by itself — 'Try again' untouched.
      api.set('up');
      await messageCard(page, 'During Dora').waitFor({ timeout: 30_000 });
      await messageCard(page, 'Before Bea').waitFor();
      await indicator(page, 'live').waitFor({ timeout: 30_000 });
      expect(await failed.count()).toBe(0);
      expect(await pageMarker(page)).toBe('outage');
      await e2e.shot(page, 'back-online');

      // The browser itself offline: said at once; online again: live again.
      await page.context().setOffline(true);
      await indicator(page, 'offline').waitFor({ timeout: 10_000 });
      await page.context().setOffline(false);
      await indicator(page, 'live').waitFor({ timeout: 30_000 });
    },
  );
});
