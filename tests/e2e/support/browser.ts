// Chromium for the browser tests: the system's build (Debian's `chromium` package, which CI
// installs), headless, without the background traffic a desktop browser makes.
import { chromium, type Browser, type Page } from 'playwright-core';
import { APP_READY_ATTRIBUTE } from '../../../src/config/prerender';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * Makes each `page.goto` of the site also wait until the app has taken the page over: a
 * prerendered page shows its markup (and Playwright finds its buttons) before its scripts have
 * run, and a click or a keystroke before then does nothing.
 */
export function waitForAppOnGoto(page: Page, siteOrigin: string): Page {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (new URL(page.url()).origin === new URL(siteOrigin).origin) {
      await page.waitForSelector(`html[${APP_READY_ATTRIBUTE}]`, {
        state: 'attached',
        timeout: 30_000,
      });
    }
    return response;
  };
  return page;
}
