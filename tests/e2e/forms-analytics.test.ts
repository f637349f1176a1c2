// Forms meet analytics end to end in Chromium: an owner adds their site to analytics and creates
// a form for it; the customer's page on another origin carries both the tracker's snippet and the
// pasted form; a visitor arrives from a news site and sends the form. The owner's inbox shows the
// page and the referrer the message came from, and the form's card its page views, submissions
// and conversion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { TRACKER_OPTIONS } from '../../src/config/analytics-tracker';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { closeEmbedDialog, createFormThroughUi, formCard, openFormsTab } from './support/forms';
import { messageCard, openMessagesTab } from './support/messages';
import { pageWith, startThirdPartySite, type ThirdPartySite } from './support/third-party-site';

/** A desktop Chrome's user agent (the collect endpoint drops headless browsers as bots). */
const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('forms meet analytics in Chromium', () => {
  const e2e = useE2e('forms-analytics');
  let site: ThirdPartySite;
  let visitorContext: BrowserContext | undefined;

  beforeAll(async () => {
    site = await startThirdPartySite();
  });
  afterAll(async () => {
    await visitorContext?.close();
    await site?.close();
  });

  it(
    'shows the page and referrer of a message from a page with the tracker, and the form’s conversion',
    { timeout: 180_000 },
    async () => {
      const owner = await e2e.newPage();
      const ada = await signedInUser(owner, 'Owner Ada');

      // The site in analytics, and its snippet (marked as a test: the visitor is an automated
      // browser on 127.0.0.1, which the tracker otherwise skips).
      await owner.goto('/dashboard/analytics');
      const add = owner.getByRole('form', { name: 'Add a site' });
      await add.getByLabel('Site name').fill('Customer site');
      await add.getByLabel('Domains').fill(new URL(site.origin).hostname);
      await add.getByRole('button', { name: 'Add site' }).click();
      await owner.getByRole('heading', { name: 'No data yet — here is your snippet' }).waitFor();
      const snippet = (await owner.locator('figure pre code').first().textContent()) ?? '';
      expect(snippet).toContain('/tb.js');

      // A form for the same site, its HTML embed pasted into the page beside the snippet.
      await openFormsTab(owner);
      const formId = await createFormThroughUi(owner, {
        name: 'Website contact',
        targetEmail: ada.email,
        allowedOrigin: site.origin,
      });
      const embed = await owner.getByLabel('Embed code').inputValue();
      await closeEmbedDialog(owner);
      site.setPage(
        '/contact',
        pageWith(
          'Contact us',
          `${snippet.replace('></script>', ` ${TRACKER_OPTIONS.local}></script>`)}\n${embed}`,
        ),
      );

      // The visitor comes from a news site's article and sends the form.
      visitorContext = await e2e.browser.newContext({ userAgent: DESKTOP_CHROME });
      const visitor = await visitorContext.newPage();
      const collected = visitor.waitForResponse((r) =>
        r.url().includes('/functions/v1/analytics/collect'),
      );
      await visitor.goto(`${site.origin}/contact`, {
        referer: 'https://news.example/articles/forms',
      });
      expect((await collected).status()).toBe(202);
      await visitor.getByLabel('Name', { exact: true }).fill('Grace Hopper');
      await visitor.getByLabel('Email', { exact: true }).fill('grace@example.org');
      await visitor.getByLabel('Message', { exact: true }).fill('Found you in the news.');
      const posted = visitor.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().includes(`/functions/v1/forms/${formId}`),
      );
      await visitor.getByRole('button', { name: 'Send' }).click();
      const response = await posted;
      expect(response.status()).toBe(303);
      // What the browser sent: the tracker's three fields, the page and the referrer's host.
      const sent = new URLSearchParams(response.request().postData() ?? '');
      expect(sent.get('_tb_page')).toBe('/contact');
      expect(sent.get('_tb_ref')).toBe('news.example');
      expect(sent.get('_tb_site')).toMatch(/^[0-9a-f-]{36}$/);

      // The owner's inbox: the page and where the visit came from, and not as a field.
      await openMessagesTab(owner);
      const card = messageCard(owner, 'Grace Hopper');
      await card.waitFor({ timeout: 20_000 });
      await expect.poll(() => card.innerText()).toMatch(/Page \/contact\s*·\s*From news\.example/);
      await e2e.shot(owner, 'message-source');
      await card.click();
      const detail = owner.getByRole('dialog', { name: 'Message from Grace Hopper' });
      await detail.getByText('Source').waitFor();
      expect(await detail.innerText()).not.toContain('_tb_');

      // The form's card: one page view of /contact, one submission from it.
      await openFormsTab(owner);
      await formCard(owner, 'Website contact')
        .getByText('1 view · 1 submission · 100.0% conversion')
        .waitFor({ timeout: 20_000 });
      await e2e.shot(owner, 'form-conversion');
    },
  );
});
