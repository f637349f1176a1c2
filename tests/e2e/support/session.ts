// One browser-test file's session: the shared site build served on a free port, one Chromium for
// the whole file, and pages opened per test that are screenshotted when the test fails and closed
// after it. Call `useE2e('<flow>')` once at the top of a describe block; it registers the hooks.
//
// Uncaught exceptions in any page (Playwright's `pageerror`) fail the test that caused them: a
// flow that "works" while the app throws is not working.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { serveSite, type SiteServer } from '../site-server';
import { launchBrowser, waitForAppOnGoto } from './browser';
import { testSiteDir, testStack } from '../../support/stack.ts';

export const SCREENSHOTS = path.resolve('test-artifacts/screenshots');

/** Building the site (first file of a run) and starting Chromium on a busy 2-core machine. */
export const SESSION_START_TIMEOUT = 300_000;

interface PageOptions {
  width?: number;
  height?: number;
  /** e.g. ['clipboard-read', 'clipboard-write'], granted for the site's origin. */
  permissions?: string[];
  /** Cookies and localStorage to start with, e.g. a signed-in session saved once per file. */
  storageState?: BrowserContextOptions['storageState'];
  /** The browser's time zone (IANA name); the machine's otherwise. */
  timezoneId?: string;
  /** A proxy for the page's requests, e.g. an API switch (support/api-switch.ts). */
  proxy?: BrowserContextOptions['proxy'];
}

export interface E2e {
  /** The site's origin, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly browser: Browser;
  /** A page in a fresh context (own cookies and storage) with reduced motion. */
  newPage(options?: PageOptions): Promise<Page>;
  /** Uncaught exceptions seen in `page` so far. */
  errorsOf(page: Page): string[];
  /** A screenshot of a key step: test-artifacts/screenshots/<flow>-<step>.png. */
  shot(page: Page, step: string): Promise<void>;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

export function useE2e(flow: string): E2e {
  let site: SiteServer | undefined;
  let browser: Browser | undefined;
  // Pages opened by the running test, with the exceptions each threw.
  let open: { context: BrowserContext; page: Page; errors: string[] }[] = [];

  beforeAll(async () => {
    const stack = testStack();
    await mkdir(SCREENSHOTS, { recursive: true });
    [site, browser] = await Promise.all([
      serveSite(stack.apiUrl, stack.anonKey, { outDir: testSiteDir() }),
      launchBrowser(),
    ]);
  }, SESSION_START_TIMEOUT);

  afterEach(async (context) => {
    const failed = context.task.result?.state === 'fail';
    const pages = open;
    open = [];
    try {
      if (failed) {
        const name = slug(context.task.name);
        await Promise.all(
          pages.map(({ page }, index) =>
            page
              .screenshot({
                path: path.join(SCREENSHOTS, `${flow}-FAILED-${name}-${index + 1}.png`),
                fullPage: true,
                timeout: 10_000,
              })
              .catch(() => undefined),
          ),
        );
      }
    } finally {
      await Promise.all(pages.map(({ context }) => context.close().catch(() => undefined)));
    }
    const thrown = pages.flatMap(({ page, errors }) =>
      errors.map((message) => `${new URL(page.url() || 'about:blank').pathname}: ${message}`),
    );
    // Reported only for otherwise passing tests: a failing one already says what went wrong.
    if (!failed && thrown.length) {
      throw new Error(`uncaught exceptions in the page:\n${thrown.join('\n')}`);
    }
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const session: E2e = {
    get url() {
      if (!site) throw new Error('the site is not served yet (use inside tests)');
      return site.url;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not started yet (use inside tests)');
      return browser;
    },
    async newPage({
      width = 1280,
      height = 800,
      permissions,
      storageState,
      timezoneId,
      proxy,
    } = {}) {
      const context = await session.browser.newContext({
        viewport: { width, height },
        reducedMotion: 'reduce',
        baseURL: session.url,
        storageState,
        timezoneId,
        proxy,
      });
      if (permissions?.length) await context.grantPermissions(permissions, { origin: session.url });
      const page = waitForAppOnGoto(await context.newPage(), session.url);
      const entry = { context, page, errors: [] as string[] };
      page.on('pageerror', (error) => entry.errors.push(error.message));
      open.push(entry);
      return page;
    },
    errorsOf(page) {
      return open.find((entry) => entry.page === page)?.errors ?? [];
    },
    async shot(page, step) {
      await page.screenshot({
        path: path.join(SCREENSHOTS, `${flow}-${slug(step)}.png`),
        fullPage: true,
      });
    },
  };
  return session;
}
