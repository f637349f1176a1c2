// The analytics tracker in Chromium, as a site owner's page runs it: the page (on an origin of its
// own) loads public/tb.js through the owner's snippet from a stand-in for the tinyback site, which
// also stands in for the collect endpoint and records each request. What a real browser adds to
// the unit tests: `defer` and document.currentScript, sendBeacon's request (a POST of text/plain,
// so no preflight), a beacon that outlives the page it left, and a page whose cookies and storage
// stay empty. No build of the site and no backend: the endpoint's own suites test the other side.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  TRACKER_FILE,
  TRACKER_QUEUE_SNIPPET,
  trackerSnippet,
  type TrackerOption,
} from '../../src/config/analytics-tracker';
import { launchBrowser } from './support/browser';
import { startThirdPartySite, type ThirdPartySite } from './support/third-party-site';

const SITE_ID = 'e2e-site';

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Record<string, unknown> | null;
}

describe('the analytics tracker in Chromium', () => {
  let tinyback: http.Server;
  let tinybackOrigin: string;
  let owner: ThirdPartySite;
  let browser: Browser;
  let context: BrowserContext;
  const received: Received[] = [];

  beforeAll(async () => {
    const tracker = await readFile(path.join(process.cwd(), 'public', TRACKER_FILE));
    tinyback = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === `/${TRACKER_FILE}`) {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(tracker);
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          path: url.pathname,
          contentType: req.headers['content-type'],
          body: req.method === 'POST' ? (JSON.parse(body) as Record<string, unknown>) : null,
        });
        // 202 for an event, as the endpoint answers; a page for the outbound link's visit.
        if (req.method === 'POST') res.writeHead(202).end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Elsewhere</title>');
      });
    });
    await new Promise<void>((resolve) => tinyback.listen(0, '127.0.0.1', resolve));
    // Another port than the owner's page: another host to the tracker, so a link to it is outbound.
    tinybackOrigin = `http://127.0.0.1:${(tinyback.address() as AddressInfo).port}`;
    owner = await startThirdPartySite();
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await owner?.close();
    await new Promise((resolve) => tinyback?.close(resolve));
  });

  /** The owner's page at `pagePath`: the snippet with `options`, then `body`. */
  function ownerPage(pagePath: string, options: TrackerOption[], body = ''): string {
    const snippet = trackerSnippet({
      siteUrl: tinybackOrigin,
      siteId: SITE_ID,
      supabaseUrl: tinybackOrigin,
      options,
    });
    owner.setPage(
      pagePath,
      `<!doctype html><html><head><title>Owner</title>${TRACKER_QUEUE_SNIPPET}${snippet}</head><body>${body}</body></html>`,
    );
    return `${owner.origin}${pagePath}`;
  }

  const events = () => received.filter((r) => r.path === '/functions/v1/analytics/collect');
  const sent = () => events().map((r) => [r.body?.n, new URL(String(r.body?.u)).pathname]);

  async function waitForEvents(count: number): Promise<void> {
    await expect.poll(() => events().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
  }

  it('counts the load, single-page navigations, custom and queued events, and an outbound click', async () => {
    context = await browser.newContext();
    const page: Page = await context.newPage();
    const url = ownerPage(
      '/shop',
      ['local', 'outbound', 'forms'],
      `<script>tinyback('early', { from: 'inline' })</script>
       <a id="out" href="${tinybackOrigin}/elsewhere">Elsewhere</a>
       <form id="contact" onsubmit="event.preventDefault()"><button>Send</button></form>`,
    );
    await page.goto(url, { referer: 'http://news.example.org/item' });
    await waitForEvents(2);
    expect(sent()).toEqual([
      ['pageview', '/shop'],
      ['early', '/shop'],
    ]);
    const [first] = events();
    expect(first.method).toBe('POST');
    // A CORS-safelisted type: the browser sends it without asking the endpoint first.
    expect(first.contentType).toBe('text/plain;charset=UTF-8');
    expect(first.body).toEqual({
      s: SITE_ID,
      n: 'pageview',
      u: url,
      // All of it or its origin, as the browser's referrer policy decides.
      r: expect.stringMatching(/^http:\/\/news\.example\.org\//),
      w: await page.evaluate(() => screen.width),
      z: await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    });
    expect(events()[1].body?.p).toEqual({ from: 'inline' });

    // Three navigations of a single-page app: two new paths and a step back (the replaced entry
    // leads back to /shop/cart); a new query alone is no new page.
    await page.evaluate(() => history.pushState({}, '', '/shop/cart'));
    await page.evaluate(() => history.pushState({}, '', '/shop/cart?step=2'));
    await page.evaluate(() => history.replaceState({}, '', '/shop/checkout'));
    await page.goBack();
    await waitForEvents(5);
    await page.evaluate(() =>
      (window as unknown as TrackerWindow).tinyback('signup', { plan: 'pro' }),
    );
    await page.click('#contact button');
    await waitForEvents(7);
    expect(sent().slice(2)).toEqual([
      ['pageview', '/shop/cart'],
      ['pageview', '/shop/checkout'],
      ['pageview', '/shop/cart'],
      ['signup', '/shop/cart'],
      ['form', '/shop/cart'],
    ]);
    expect(events()[5].body?.p).toEqual({ plan: 'pro' });
    expect(events()[6].body?.p).toEqual({ form: 'contact' });

    // Nothing was kept on the device.
    expect(await context.cookies()).toEqual([]);
    expect(
      await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length]),
    ).toEqual(['', 0, 0]);

    // The beacon leaves with the page: the click navigates away at once.
    await Promise.all([page.waitForURL(`${tinybackOrigin}/elsewhere`), page.click('#out')]);
    await waitForEvents(8);
    expect(events()[7].body).toMatchObject({
      n: 'outbound',
      p: { url: `${tinybackOrigin}/elsewhere` },
    });
    expect(received.filter((r) => r.method === 'OPTIONS')).toEqual([]);
  });

  it('sends nothing from an automated browser on 127.0.0.1 without data-local', async () => {
    const before = events().length;
    const page = await context.newPage();
    // goto waits for the load event, which comes after deferred scripts have run.
    await page.goto(ownerPage('/quiet', ['outbound']));
    await page.evaluate(async (origin) => {
      (window as unknown as TrackerWindow).tinyback('signup');
      await fetch(`${origin}/ping`, { mode: 'no-cors' });
    }, tinybackOrigin);
    await expect.poll(() => received.some((r) => r.path === '/ping')).toBe(true);
    // A beacon, had one been sent, would most likely have come before the page's later request.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events()).toHaveLength(before);
  });
});

/** The owner's page once the tracker has run. */
interface TrackerWindow {
  tinyback: (name: string, props?: Record<string, string>) => void;
}
