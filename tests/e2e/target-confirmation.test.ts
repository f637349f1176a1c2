// A form sent to another address than the owner's, in Chromium, from both sides: the New Form
// dialog starts with the account's own address; a form sent elsewhere is ready with a note that
// its confirmation is pending, and the link leaves within seconds (no scheduled run is waited
// for); a visitor's message meanwhile is stored, not e-mailed; the recipient's page names the
// address and the form and thanks them; then the owner sends the message received meanwhile
// from the form's card, and it arrives as it was written.
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { waitForMailTo } from './support/mail';
import { formCard, formIdFromEmbedCode, openFormsTab } from './support/forms';
import { testStack } from '../support/stack.ts';

const ORIGIN = 'https://shop.example.test';

describe('a target address that needs confirming, in Chromium', () => {
  const e2e = useE2e('target-confirmation');

  it(
    'is prefilled with the owner’s own, confirmed within seconds, thanked, and its waiting messages sent',
    { timeout: 180_000 },
    async () => {
      const page = await e2e.newPage();
      const owner = await signedInUser(page, 'Confirming Owner');
      await openFormsTab(page);

      // The dialog starts with the account's own address, which needs no confirmation.
      await page.getByRole('button', { name: '+ New Form', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New Form', exact: true });
      const target = dialog.getByLabel('Target e-mail address', { exact: true });
      await expect.poll(() => target.inputValue(), { timeout: 10_000 }).toBe(owner.email);
      expect(await dialog.innerText()).toContain(
        'Your account’s own address needs no confirmation',
      );
      await e2e.shot(page, 'new-form-prefilled');

      // Sent elsewhere instead.
      const address = `sales-${Date.now().toString(36)}@elsewhere.example.test`;
      await dialog.getByLabel('Form name', { exact: true }).fill('Sales leads');
      await target.fill(address);
      await dialog.getByLabel('Allowed origin', { exact: true }).fill(ORIGIN);
      const created = Date.now();
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();

      // Ready, with the pending confirmation said where it happened.
      const ready = page.getByRole('dialog', { name: '"Sales leads" is ready' });
      await ready.waitFor();
      const note = ready.getByTestId('confirmation-pending');
      expect(await note.innerText()).toContain(`Confirmation pending: check ${address}`);
      expect(await note.innerText()).toMatch(/stored in your dashboard but not e-mailed/);
      await e2e.shot(page, 'ready-confirmation-pending');
      const formId = formIdFromEmbedCode(await ready.getByLabel('Embed code').inputValue());
      await ready.getByRole('button', { name: 'Done' }).click();

      // The link leaves at once: the stack's scheduled mail run comes only once a minute.
      const mail = await waitForMailTo(address, /^Confirm this address/, 30_000);
      expect(Date.now() - created).toBeLessThan(20_000);
      const link = new URL((mail.text ?? '').match(/https?:\/\/\S+/)![0]);

      // A visitor writes meanwhile: stored, not e-mailed.
      const stack = testStack();
      const posted = await fetch(`${stack.apiUrl}/functions/v1/forms/${formId}`, {
        method: 'POST',
        headers: {
          origin: ORIGIN,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          name: 'Ada',
          email: 'ada@example.org',
          message: 'Written before the address was confirmed',
          _subject: 'A quote, please',
        }).toString(),
      });
      expect(posted.status).toBe(200);

      // The recipient (no account) sees which address and which form, and is thanked.
      const recipient = await e2e.newPage({ width: 390, height: 844 });
      await recipient.goto(link.pathname + link.search);
      await recipient.getByRole('heading', { name: 'Confirm this address' }).waitFor();
      const subject = recipient.getByTestId('confirmation-subject');
      await subject.waitFor();
      expect(await subject.innerText()).toContain('“Sales leads”');
      expect(await subject.innerText()).toContain(address);
      await e2e.shot(recipient, 'confirm-page-names-address-and-form');
      await recipient.getByRole('button', { name: 'Confirm address' }).click();
      await recipient.getByRole('heading', { name: 'Thank you for confirming' }).waitFor();
      expect(await recipient.locator('main').innerText()).toContain(
        `From now on, ${address} receives the messages of the form “Sales leads”.`,
      );
      expect(await recipient.getByRole('link', { name: /your forms/i }).count()).toBe(0);
      await e2e.shot(recipient, 'confirm-page-thanks');

      // The owner's card follows live: the pending note goes, the waiting message is offered.
      const card = formCard(page, 'Sales leads');
      await card.getByText(/Confirmation pending/).waitFor({ state: 'detached', timeout: 20_000 });
      const held = card.getByTestId('held-messages');
      await held.waitFor({ timeout: 20_000 });
      expect(await held.innerText()).toContain(
        `1 message arrived before ${address} was confirmed and was not e-mailed.`,
      );
      await e2e.shot(page, 'card-offers-held-message');
      await card.getByRole('button', { name: 'Send the message received meanwhile' }).click();
      await page.getByText(`1 message is on its way to ${address}`).waitFor();
      await held.waitFor({ state: 'detached', timeout: 20_000 });

      // It arrives as it would have then: the visitor's subject and words.
      const notification = await waitForMailTo(address, /^A quote, please$/, 30_000);
      expect(notification.text).toContain('Written before the address was confirmed');
    },
  );
});
