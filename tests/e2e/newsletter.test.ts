// An owner's newsletter end to end in Chromium: the owner creates a list and pastes its signup form
// into a page on another origin; a visitor subscribes there and confirms through the link of the
// mail in the catcher (on the button press); the owner sends a campaign; the visitor's copy carries
// List-Unsubscribe and List-Unsubscribe-Post; one POST to the header's URL unsubscribes them, and
// the owner's open list shows it live. The link in the mail's body needs nothing more than opening
// it: its page posts the unsubscribe by itself, once. The owner's search runs on the server, its
// LIKE and PostgREST characters taken as themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { seriousViolations } from './support/a11y';
import { waitForMailTo } from './support/mail';
import { pageWith, startThirdPartySite, type ThirdPartySite } from './support/third-party-site';
import { mailSource, partsOf } from '../support/mail';
import { testStack } from '../support/stack.ts';

describe('owner newsletter in Chromium', () => {
  const e2e = useE2e('newsletter');
  let site: ThirdPartySite;

  beforeAll(async () => {
    site = await startThirdPartySite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it(
    'a visitor subscribes on another origin and confirms, gets a campaign with one-click unsubscribe headers, and leaves with one POST',
    { timeout: 300_000 },
    async () => {
      const owner = await e2e.newPage();
      await signedInUser(owner, 'Owner Letters');
      await owner.goto('/dashboard/newsletter');
      await owner.getByRole('button', { name: 'New list' }).click();
      const listName = `Shop news ${Math.random().toString(36).slice(2, 6)}`;
      await owner.getByLabel('List name').fill(listName);
      await owner.getByLabel("Your site's address").fill(site.origin);
      await owner.getByRole('button', { name: 'Create list' }).click();
      await owner.getByRole('tab', { name: 'Signup form' }).click();
      const code = owner.getByLabel('Signup form code (HTML)');
      await code.waitFor({ timeout: 20_000 });
      const snippet = await code.inputValue();
      expect(snippet).toContain('/functions/v1/newsletter/lists/');
      site.setPage('/news', pageWith('Our news', snippet));

      // The visitor, on the customer's page.
      const visitor = await e2e.newPage({ width: 390, height: 844 });
      await visitor.goto(`${site.origin}/news`);
      const email = `reader-${Date.now().toString(36)}@example.test`;
      await visitor.locator('input[name="email"]').fill(email);
      const posted = visitor.waitForResponse(
        (r) =>
          r.request().method() === 'POST' && r.url().includes('/functions/v1/newsletter/lists/'),
      );
      await visitor
        .locator('form button[type="submit"], form input[type="submit"]')
        .first()
        .click();
      // The answer sends the visitor to the site's "check your inbox" page (the stack's SITE_URL).
      const response = await posted;
      expect(response.status()).toBe(303);
      expect(response.headers()['location']).toMatch(/\/newsletter\/check-inbox$/);

      const confirmation = await waitForMailTo(email, /^Confirm your subscription/, 30_000);
      const link = /\/newsletter\/confirm\?list=1&token=[A-Za-z0-9_-]+/.exec(
        confirmation.text ?? '',
      )?.[0];
      expect(link, confirmation.text).toBeTruthy();
      await visitor.goto(link!);
      await visitor.getByRole('button', { name: 'Confirm subscription' }).click();
      await visitor.getByText(listName, { exact: false }).first().waitFor({ timeout: 20_000 });
      expect(await seriousViolations(visitor)).toEqual([]);

      // The owner's open page shows the confirmed subscriber.
      await owner.getByRole('tab', { name: 'Subscribers' }).click();
      const subscribers = owner.getByRole('table', { name: 'Subscribers' });
      const row = subscribers.getByRole('row').filter({ hasText: email });
      await row.getByText('Confirmed').waitFor({ timeout: 20_000 });

      // A campaign to the list.
      await owner.getByRole('tab', { name: 'Campaigns' }).click();
      await owner.getByRole('button', { name: 'New campaign' }).click();
      const draft = owner.getByRole('form', { name: 'Campaign draft' });
      await draft.waitFor({ timeout: 20_000 });
      const subject = `Spring news ${Date.now().toString(36)}`;
      await draft.getByLabel('Subject').fill(subject);
      await draft
        .getByLabel('Message (Markdown)')
        .fill('## Hello\n\nOur **spring** range is here.');
      await draft.getByRole('button', { name: 'Save' }).click();
      await owner.getByRole('button', { name: 'Send now' }).first().click();
      const dialog = owner.getByRole('alertdialog');
      await dialog.getByRole('button', { name: 'Send now' }).click();

      const message = await waitForMailTo(email, new RegExp(`^${subject}$`), 120_000);
      const [top] = partsOf(await mailSource(testStack().mailWebUrl, message));
      const unsubscribe = /^list-unsubscribe: <([^>]+)>/im.exec(top!.headers)?.[1];
      expect(unsubscribe, top!.headers).toMatch(/\/functions\/v1\/newsletter\/u\//);
      expect(top!.headers).toMatch(/^list-unsubscribe-post: List-Unsubscribe=One-Click$/im);
      expect(readableOf(message)).toContain('spring');

      // The owner's list open again, then one POST, as a mail program sends it (no cookies, no
      // redirect followed): the list shows the subscriber unsubscribed without a reload.
      await owner.goto('/dashboard/newsletter');
      const again = owner
        .getByRole('table', { name: 'Subscribers' })
        .getByRole('row')
        .filter({ hasText: email });
      await again.getByText('Confirmed').waitFor({ timeout: 20_000 });
      const answer = await fetch(unsubscribe!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
        redirect: 'manual',
      });
      expect(answer.status).toBe(200);
      await again.getByText('Unsubscribed').waitFor({ timeout: 20_000 });
      // The counts by status follow too.
      const counts = owner.getByRole('group', { name: 'Subscribers by status' });
      await expect
        .poll(() => counts.innerText(), { timeout: 20_000 })
        .toMatch(/Confirmed\s+0\s+Unsubscribed\s+1/);
      await e2e.shot(owner, 'unsubscribed');

      // The body's link: opening it is the one click. Its page posts the signed link once, by
      // itself, and says so (here the address is already off the list: the answer is the same).
      const bodyLink =
        /\/newsletter\/unsubscribe\?u=[0-9a-f-]+&c=[0-9a-f-]+&sig=[A-Za-z0-9_-]+/.exec(
          message.text ?? '',
        )?.[0];
      expect(bodyLink, message.text).toBeTruthy();
      const posts: string[] = [];
      visitor.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes('/functions/v1/newsletter/u/'))
          posts.push(request.url());
      });
      await visitor.goto(bodyLink!);
      await visitor
        .getByRole('status')
        .filter({ hasText: `You are unsubscribed from ${listName}.` })
        .waitFor({ timeout: 20_000 });
      expect(posts).toHaveLength(1);
      expect(new URL(visitor.url()).search).toBe('?list=1');
      expect(await seriousViolations(visitor)).toEqual([]);
      await e2e.shot(visitor, 'unsubscribed-by-link');

      // The owner's search, asked of the server: the characters that mean something to LIKE or
      // to PostgREST's filter syntax find nothing instead of breaking the request.
      const search = owner.getByRole('searchbox', { name: 'Search subscribers' });
      await search.fill(',()_%*"\\.:');
      await owner
        .getByRole('status')
        .filter({ hasText: 'No matching subscribers' })
        .waitFor({ timeout: 20_000 });
      await search.fill(email.slice(0, 12).toUpperCase());
      await again.getByText('Unsubscribed').waitFor({ timeout: 20_000 });
      await owner
        .getByRole('status')
        .filter({ hasText: 'Showing 1–1 of 1 matching subscriber' })
        .waitFor({ timeout: 20_000 });
      expect(e2e.errorsOf(owner)).toEqual([]);
      expect(e2e.errorsOf(visitor)).toEqual([]);
    },
  );
});

/** A caught mail's text, for what it says. */
function readableOf(mail: { text?: string; html?: string }): string {
  return `${mail.text ?? ''}\n${mail.html ?? ''}`;
}
