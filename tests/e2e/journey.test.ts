// The whole first-day journey in Chromium, through the UI only, as one new user lives it: the home
// page's hero takes an e-mail address to /register, the account is created and confirmed through
// the link of the confirmation mail, a form is made for the user's own website (another origin)
// from the Forms page, its embed code is copied to the clipboard and pasted into that site; a
// visitor sends the form there; the message appears in the owner's open Messages tab without a
// reload, and its notification reaches the owner's mailbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { confirmThroughMail, newAccount, waitForPath } from './support/auth';
import { closeEmbedDialog, createFormThroughUi, formCard } from './support/forms';
import {
  EMPTY_INBOX,
  allMessageCards,
  markPage,
  messageCard,
  pageMarker,
} from './support/messages';
import { pageWith, startThirdPartySite, type ThirdPartySite } from './support/third-party-site';
import { waitForMailTo } from './support/mail';

const FORM_NAME = 'Journey contact';

const VISITOR = {
  name: 'Katherine Johnson',
  email: 'katherine@example.org',
  message: 'Found you through your website. Could we talk about orbits?',
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the first-day journey in Chromium', () => {
  const e2e = useE2e('journey');
  let thirdParty: ThirdPartySite;

  beforeAll(async () => {
    thirdParty = await startThirdPartySite();
  });
  afterAll(async () => {
    await thirdParty?.close();
  });

  it('goes from the home page to a live message and its e-mail', { timeout: 180_000 }, async () => {
    const account = newAccount('Journey Owner');
    const owner = await e2e.newPage({ permissions: ['clipboard-read', 'clipboard-write'] });

    // Home: the hero's e-mail box carries the address to the register form.
    await owner.goto('/');
    const hero = owner.getByRole('form', { name: 'Get started' });
    await hero.getByLabel('Your email address', { exact: true }).fill(account.email);
    await e2e.shot(owner, 'home-hero');
    await hero.getByRole('button', { name: /Get Started Free/ }).click();
    await waitForPath(owner, '/register');

    // Register: the address is already there; name and password complete the account.
    const emailField = owner.getByLabel('Email', { exact: true });
    await expect.poll(() => emailField.inputValue(), { timeout: 10_000 }).toBe(account.email);
    await owner.getByLabel('Full name', { exact: true }).fill(account.name);
    await owner.getByLabel('Password', { exact: true }).fill(account.password);
    await e2e.shot(owner, 'register-prefilled');
    await owner.getByRole('button', { name: 'Create account', exact: true }).click();
    // "Check your inbox": the link in the confirmation mail signs in on the dashboard.
    await owner.getByRole('heading', { name: 'Check your inbox', level: 1 }).waitFor();
    await e2e.shot(owner, 'check-inbox');
    await confirmThroughMail(owner, account.email);
    await owner
      .getByText(/welcome/i)
      .filter({ hasText: account.name })
      .first()
      .waitFor();
    await e2e.shot(owner, 'dashboard');

    // Forms, through the sidebar; a new form for the user's own site, mailing their own address.
    await owner
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: /^Forms/ })
      .click();
    await waitForPath(owner, '/dashboard/forms');
    await owner.getByRole('button', { name: '+ New Form', exact: true }).waitFor();
    const formId = await createFormThroughUi(owner, {
      name: FORM_NAME,
      targetEmail: account.email,
      allowedOrigin: thirdParty.origin,
    });

    // The embed dialog: 'Copy Embed Code' puts exactly the shown code on the clipboard.
    const shown = await owner.getByLabel('Embed code').inputValue();
    await owner.getByRole('button', { name: 'Copy Embed Code' }).click();
    await owner.getByRole('button', { name: /Copied/ }).waitFor();
    const copied = await owner.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    expect(copied).toContain(`/functions/v1/forms/${formId}"`);
    await e2e.shot(owner, 'embed-code-copied');
    await closeEmbedDialog(owner);

    // The account's own address is confirmed (through the sign-up link), so the card shows no
    // pending note and the first message will be e-mailed.
    const card = formCard(owner, FORM_NAME);
    await card.getByText(`To: ${account.email}`).waitFor();
    expect(await card.getByText(/Confirmation pending/).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Resend confirmation' }).count()).toBe(0);

    // The owner opens the Messages tab and keeps it open (the marker proves no reload).
    await owner.getByRole('tab', { name: /^Messages/ }).click();
    await owner.getByRole('heading', { name: 'Messages', level: 1 }).waitFor();
    await owner.getByText(EMPTY_INBOX).waitFor();
    await markPage(owner, 'journey-owner');
    const inboxUrl = owner.url();
    expect(new URL(inboxUrl).searchParams.get('tab')).toBe('messages');

    // The copied code, pasted into a page on the other origin, is sent by a visitor there.
    thirdParty.setPage('/contact', pageWith('Contact us', copied));
    const visitor = await e2e.newPage();
    await visitor.goto(`${thirdParty.origin}/contact`);
    await visitor.getByLabel('Name', { exact: true }).fill(VISITOR.name);
    await visitor.getByLabel('Email', { exact: true }).fill(VISITOR.email);
    await visitor.getByLabel('Message', { exact: true }).fill(VISITOR.message);
    await e2e.shot(visitor, 'visitor-form');
    const posted = visitor.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        response.url().includes(`/functions/v1/forms/${formId}`),
    );
    await visitor.getByRole('button', { name: 'Send' }).click();
    // Accepted: a browser post is answered with a redirect to the thank-you page.
    expect((await posted).status()).toBe(303);

    // The message appears in the owner's open tab by itself.
    const message = messageCard(owner, VISITOR.name);
    await message.waitFor({ timeout: 20_000 });
    expect(await pageMarker(owner)).toBe('journey-owner');
    expect(owner.url()).toBe(inboxUrl);
    const messageText = await message.innerText();
    expect(messageText).toContain(FORM_NAME);
    expect(messageText).toContain(VISITOR.email);
    expect(messageText).toContain('Could we talk about orbits?');
    expect(await allMessageCards(owner).count()).toBe(1);
    await e2e.shot(owner, 'message-live');

    // And the notification for it is in the owner's mailbox.
    const mail = await waitForMailTo(account.email, new RegExp(escapeRegExp(FORM_NAME)), 30_000);
    expect(mail.subject).toContain(FORM_NAME);
    expect(mail.text ?? '').toContain(FORM_NAME);
    expect(mail.text ?? '').toContain(VISITOR.message);
    expect(mail.text ?? '').toContain(VISITOR.email);
  });
});
