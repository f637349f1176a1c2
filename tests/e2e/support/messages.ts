// The Messages tab as its owner uses it: open it (optionally on a view), find message cards, and
// put a marker on `window` that only survives while the page is not reloaded.
import type { Locator, Page } from 'playwright-core';

export const EMPTY_INBOX = 'No messages received yet.';

/** Opens /dashboard/forms?tab=messages (plus any extra query) and waits for the list to settle. */
export async function openMessagesTab(page: Page, query = ''): Promise<void> {
  await page.goto(`/dashboard/forms?tab=messages${query ? `&${query}` : ''}`);
  await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor();
  // Settled: either cards or an empty state, not the loading skeleton.
  await page
    .getByRole('article', { name: /^Message from / })
    .or(page.getByText(/^No messages/))
    .first()
    .waitFor();
}

/** A message's card: an <article> named 'Message from {name or Anonymous}'. */
export function messageCard(page: Page, name: string): Locator {
  return page.getByRole('article', { name: `Message from ${name}`, exact: true });
}

export function allMessageCards(page: Page): Locator {
  return page.getByRole('article', { name: /^Message from / });
}

/** Sets a value on `window` that a reload or a full navigation would wipe. */
export async function markPage(page: Page, marker: string): Promise<void> {
  await page.evaluate((value) => {
    (window as unknown as { __e2eMarker?: string }).__e2eMarker = value;
  }, marker);
}

export async function pageMarker(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (window as unknown as { __e2eMarker?: string }).__e2eMarker);
}
