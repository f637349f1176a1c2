// Managing forms in Chromium, as an owner does on the Forms tab: create one (the embed box
// follows), edit its name and switch its e-mail notifications off (saved by the Form tab's own
// button), delete it after a confirmation that names it; an invalid origin is refused inline
// without creating anything; and a new target address is confirmed through the link e-mailed to it.
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { waitForMailTo } from './support/mail';
import type { Locator } from 'playwright-core';
import {
  closeEmbedDialog,
  createDialog,
  createFormThroughUi,
  fillCreateDialog,
  formCard,
  formIdOnCard,
  openFormsTab,
} from './support/forms';
import { testStack } from '../support/stack.ts';

/**
 * The text of the elements an input's aria-describedby and aria-errormessage point to: its hint
 * and its error message (Chakra's fields tie the message through aria-errormessage).
 */
async function describedText(input: Locator): Promise<string> {
  return input.evaluate((element) =>
    ['aria-describedby', 'aria-errormessage']
      .map((name) => element.getAttribute(name) ?? '')
      .join(' ')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .filter(Boolean)
      .join(' '),
  );
}

describe('forms in Chromium', () => {
  const e2e = useE2e('forms');

  it('creates, edits and deletes a form', { timeout: 120_000 }, async () => {
    const page = await e2e.newPage();
    const owner = await signedInUser(page, 'Form Keeper');
    await openFormsTab(page);

    // Create: the embed box follows with the new form's code.
    const id = await createFormThroughUi(page, {
      name: 'Contact us',
      targetEmail: 'inbox@example.com',
      allowedOrigin: 'https://Example.com/',
    });
    await e2e.shot(page, 'created-embed-box');
    const code = await page.getByLabel('Embed code').inputValue();
    expect(code).toContain(`/functions/v1/forms/${id}`);
    expect(code).toContain('name="email"');
    await closeEmbedDialog(page);

    const card = formCard(page, 'Contact us');
    await card.waitFor();
    expect(await formIdOnCard(page, 'Contact us')).toBe(id);
    expect(await card.innerText()).toContain('To: inbox@example.com');
    // Not the account's own address: it waits for the link e-mailed there.
    expect(await card.innerText()).toContain('Confirmation pending: check inbox@example.com');
    await card.getByRole('button', { name: 'Resend confirmation' }).waitFor();
    const stored = await owner.client.from('forms').select('*').eq('id', id).single();
    expect(stored.error).toBeNull();
    // Trimmed, lower-cased and without its trailing slash, as the database keeps origins.
    expect(stored.data).toMatchObject({
      name: 'Contact us',
      target_email: 'inbox@example.com',
      allowed_origin: 'https://example.com',
      notify_email: true,
    });

    // Edit: new name, notifications off; saved and visible on the card.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel('Form name', { exact: true }).waitFor();
    expect(await edit.getByLabel('Form name', { exact: true }).inputValue()).toBe('Contact us');
    await edit.getByLabel('Form name', { exact: true }).fill('Support requests');
    const notifications = edit.getByRole('checkbox', { name: /notifications/i });
    expect(await notifications.isChecked()).toBe(true);
    // The switch's input is visually hidden; a user clicks its label (scrolled into view).
    await edit.getByText('E-mail notifications', { exact: true }).click();
    expect(await notifications.isChecked()).toBe(false);
    await e2e.shot(page, 'edit-dialog');
    // The Form tab saves with its own button, like every tab; the dialog stays open.
    await edit.getByRole('button', { name: 'Save form' }).click();
    await expect.poll(() => edit.getByTestId('unsaved-summary').innerText()).toBe('');
    await edit
      .getByRole('button', { name: 'Close', exact: true })
      .filter({ hasText: 'Close' })
      .click();
    await edit.waitFor({ state: 'detached' });

    const renamed = formCard(page, 'Support requests');
    await renamed.waitFor();
    expect(await formCard(page, 'Contact us').count()).toBe(0);
    expect(await renamed.innerText()).toMatch(/notifications off/i);
    const edited = await owner.client.from('forms').select('*').eq('id', id).single();
    expect(edited.data).toMatchObject({ name: 'Support requests', notify_email: false });

    // Still so after a reload: it was saved, not only shown.
    await page.reload();
    await formCard(page, 'Support requests').waitFor();
    expect(await formCard(page, 'Support requests').innerText()).toMatch(/notifications off/i);

    // Delete: the confirmation names the form; the card goes, and so does the row.
    await formCard(page, 'Support requests').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Support requests');
    await e2e.shot(page, 'delete-confirmation');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await formCard(page, 'Support requests').waitFor({ state: 'detached' });
    await page.getByText('No forms created yet. Start by adding a new form.').waitFor();
    const gone = await owner.client.from('forms').select('id').eq('id', id);
    expect(gone.data).toEqual([]);
  });

  it('refuses an invalid origin inline and creates nothing', { timeout: 90_000 }, async () => {
    const page = await e2e.newPage();
    const owner = await signedInUser(page, 'Origin Checker');
    await openFormsTab(page);

    const dialog = await fillCreateDialog(page, {
      name: 'Bad origin',
      targetEmail: 'inbox@example.com',
      allowedOrigin: 'example.com/contact page',
    });
    const origin = dialog.getByLabel('Allowed origin', { exact: true });
    const before = await describedText(origin);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();

    await expect.poll(() => origin.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    // A message is tied to the input, so a screen reader reads it with the field, and shown.
    const after = await describedText(origin);
    expect(after.length).toBeGreaterThan(before.length);
    const message = after.replace(before, '').trim();
    expect(await dialog.getByText(message).first().isVisible()).toBe(true);
    await e2e.shot(page, 'invalid-origin');

    // The dialog stays open with what was typed; nothing reached the database.
    expect(await createDialog(page).isVisible()).toBe(true);
    expect(await dialog.getByLabel('Form name', { exact: true }).inputValue()).toBe('Bad origin');
    const { data, error } = await owner.client.from('forms').select('id');
    expect(error).toBeNull();
    expect(data).toEqual([]);

    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await createDialog(page).waitFor({ state: 'detached' });
    await page.getByText('No forms created yet. Start by adding a new form.').waitFor();
  });

  it(
    'confirms a target address through the e-mailed link, and the card follows live',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage();
      await signedInUser(page, 'Address Prover');
      await openFormsTab(page);
      const target = `sales-${Date.now().toString(36)}@elsewhere.example.test`;
      await createFormThroughUi(page, {
        name: 'Sales leads',
        targetEmail: target,
        allowedOrigin: 'https://example.com',
      });
      await closeEmbedDialog(page);
      const card = formCard(page, 'Sales leads');
      await card.getByText(`Confirmation pending: check ${target}`).waitFor();
      await e2e.shot(page, 'confirmation-pending');

      // The mail run (the scheduler's, made now rather than waited for) sends the link.
      const stack = testStack();
      const run = await fetch(`${stack.apiUrl}/functions/v1/forms/_deliver`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
      });
      expect(run.status).toBe(200);
      const mail = await waitForMailTo(target, /^Confirm this address/, 30_000);
      const link = new URL((mail.text ?? '').match(/https?:\/\/\S+/)![0]);

      // The recipient opens it in another browser (no account) and confirms.
      const recipient = await e2e.newPage();
      await recipient.goto(link.pathname + link.search);
      await recipient.getByRole('heading', { name: 'Confirm this address' }).waitFor();
      await e2e.shot(recipient, 'confirm-address-page');
      await recipient.getByRole('button', { name: 'Confirm address' }).click();
      await recipient.getByRole('heading', { name: 'Thank you for confirming' }).waitFor();
      expect(await recipient.getByText(target).isVisible()).toBe(true);

      // The owner's open Forms tab drops the note by itself.
      await card.getByText(/Confirmation pending/).waitFor({ state: 'detached', timeout: 20_000 });
      expect(await card.getByRole('button', { name: 'Resend confirmation' }).count()).toBe(0);

      // The link works once: opened again, it says so at once, with nothing to press.
      await recipient.reload();
      await recipient.getByRole('heading', { name: 'This link was already used' }).waitFor();
      expect(await recipient.getByRole('button', { name: 'Confirm address' }).count()).toBe(0);
    },
  );
});
