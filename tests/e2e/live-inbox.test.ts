// The product's central promise, end to end in Chromium: an owner creates a form for their own
// website, copies its embed code, pastes it into a page on that (other-origin) site; a visitor
// sends the form there; and the message appears in the owner's open Messages tab at once,
// without a reload, with every field the visitor sent. Another signed-in user, watching their own
// Messages tab at the same moment, never sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { closeEmbedDialog, createFormThroughUi, openFormsTab } from './support/forms';
import {
  EMPTY_INBOX,
  allMessageCards,
  markPage,
  messageCard,
  openMessagesTab,
  pageMarker,
} from './support/messages';
import { pageWith, startThirdPartySite, type ThirdPartySite } from './support/third-party-site';
import { createForm } from '../support/supabase-users';
import { waitForMailTo } from './support/mail';
import type { Page } from 'playwright-core';

const VISITOR = {
  name: 'Grace Hopper',
  email: 'grace@example.org',
  message: 'Hello from the other site!\nCan we talk about compilers?',
  company: 'Analytical Engines Ltd',
};

/** Everything the page's WebSockets (Realtime) receive, as text. */
function recordSocketFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => frames.push(payload.toString()));
  });
  return frames;
}

/** The customer adds a field of their own to the pasted form, before its button. */
function withCompanyField(snippet: string): string {
  const field = [
    '  <label for="company">Company</label>',
    '  <input id="company" name="company" type="text">',
    '',
  ].join('\n');
  const at = snippet.indexOf('  <button type="submit">');
  if (at < 0) throw new Error(`the embed code has no submit button:\n${snippet}`);
  return snippet.slice(0, at) + field + snippet.slice(at);
}

describe('live inbox in Chromium', () => {
  const e2e = useE2e('live-inbox');
  let thirdParty: ThirdPartySite;

  beforeAll(async () => {
    thirdParty = await startThirdPartySite();
  });
  afterAll(async () => {
    await thirdParty?.close();
  });

  it(
    'shows a message sent from another site in the owner’s open inbox, and only there',
    { timeout: 180_000 },
    async () => {
      // Owner A creates a form for the third-party site and copies its embed code.
      const owner = await e2e.newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
      const ownerFrames = recordSocketFrames(owner);
      const ada = await signedInUser(owner, 'Owner Ada');
      await openFormsTab(owner);
      // Her own account address: it needs no confirmation, so the first message is e-mailed.
      const formId = await createFormThroughUi(owner, {
        name: 'Website contact',
        targetEmail: ada.email,
        allowedOrigin: thirdParty.origin,
      });
      const shown = await owner.getByLabel('Embed code').inputValue();
      await owner.getByRole('button', { name: 'Copy Embed Code' }).click();
      await owner.getByRole('button', { name: /Copied/ }).waitFor();
      const copied = await owner.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(shown);
      expect(copied).toContain(`/functions/v1/forms/${formId}"`);
      await e2e.shot(owner, 'copied-embed-code');
      await closeEmbedDialog(owner);

      // A's Messages tab is open (and marked, to prove it is never reloaded).
      await openMessagesTab(owner);
      await owner.getByText(EMPTY_INBOX).waitFor();
      await markPage(owner, 'owner-page');
      const ownerUrl = owner.url();

      // B, another owner, watches B's own empty inbox at the same time.
      const other = await e2e.newPage();
      const otherFrames = recordSocketFrames(other);
      const otherUser = await signedInUser(other, 'Owner Bob');
      await openMessagesTab(other);
      await other.getByText(EMPTY_INBOX).waitFor();
      await markPage(other, 'other-page');

      // The customer pastes the code into their site; a visitor sends the form there.
      thirdParty.setPage('/contact', pageWith('Contact us', withCompanyField(copied)));
      const visitor = await e2e.newPage();
      await visitor.goto(`${thirdParty.origin}/contact`);
      await visitor.getByLabel('Name', { exact: true }).fill(VISITOR.name);
      await visitor.getByLabel('Email', { exact: true }).fill(VISITOR.email);
      await visitor.getByLabel('Message', { exact: true }).fill(VISITOR.message);
      await visitor.getByLabel('Company', { exact: true }).fill(VISITOR.company);
      await e2e.shot(visitor, 'third-party-form');
      const posted = visitor.waitForResponse(
        (response) =>
          response.request().method() === 'POST' &&
          response.url().includes(`/functions/v1/forms/${formId}`),
      );
      await visitor.getByRole('button', { name: 'Send' }).click();
      const response = await posted;
      // Accepted: a browser post is answered with a redirect to the thank-you page.
      expect(response.status()).toBe(303);

      // The message appears in A's open tab by itself.
      const card = messageCard(owner, VISITOR.name);
      await card.waitFor({ timeout: 20_000 });
      expect(await pageMarker(owner)).toBe('owner-page');
      expect(owner.url()).toBe(ownerUrl);
      const cardText = await card.innerText();
      expect(cardText).toContain('Website contact');
      expect(cardText).toContain(VISITOR.email);
      expect(cardText).toContain('Hello from the other site!');
      expect(await allMessageCards(owner).count()).toBe(1);
      // It came over the live channel (not a refetch): the socket carried it.
      expect(ownerFrames.some((frame) => frame.includes(VISITOR.email))).toBe(true);
      await e2e.shot(owner, 'message-arrived-live');

      // B: a change of B's own made after the message (a new form of B's) reaches B's open tab
      // through the same live channel, so anything meant for B has arrived by then too.
      await createForm(otherUser.client, 'Bob barrier form');
      await expect
        .poll(
          () =>
            other
              .getByLabel('Filter by form')
              .locator('option', { hasText: 'Bob barrier form' })
              .count(),
          { timeout: 20_000 },
        )
        .toBe(1);
      expect(await pageMarker(other)).toBe('other-page');
      expect(await allMessageCards(other).count()).toBe(0);
      expect(await other.getByText(EMPTY_INBOX).isVisible()).toBe(true);
      expect(await other.getByText(VISITOR.name).count()).toBe(0);
      // Not even on the wire: B's socket never carried the message or A's form.
      expect(otherFrames.some((frame) => frame.includes('Bob barrier form'))).toBe(true);
      expect(otherFrames.filter((frame) => frame.includes(VISITOR.email))).toEqual([]);
      expect(otherFrames.filter((frame) => frame.includes(formId))).toEqual([]);
      // And on the server: B's inbox is empty.
      const { data: bEntries, error } = await otherUser.client.from('entries').select('id');
      expect(error).toBeNull();
      expect(bEntries).toEqual([]);

      // A opens the message: the detail shows every field, the extra one included.
      await card.click();
      const detail = owner.getByRole('dialog', { name: `Message from ${VISITOR.name}` });
      await detail.waitFor();
      await detail.getByText(VISITOR.company).waitFor();
      const detailText = await detail.innerText();
      expect(detailText).toContain(VISITOR.email);
      expect(detailText).toContain('Can we talk about compilers?');
      expect(detailText).toMatch(/company/i);
      expect(detailText).toContain('Website contact');
      await e2e.shot(owner, 'message-detail');
      expect(await pageMarker(owner)).toBe('owner-page');

      // The owner is e-mailed the message too, and the inbox says so once it has been sent.
      const mail = await waitForMailTo(ada.email, /./, 30_000);
      expect(`${mail.subject}\n${mail.text ?? ''}`).toContain('Website contact');
      expect(mail.text ?? mail.html ?? '').toContain(VISITOR.company);
      await detail.getByText(/^E-mailed/).waitFor({ timeout: 30_000 });
    },
  );
});
