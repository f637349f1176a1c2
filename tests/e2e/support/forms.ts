// The Forms tab as its owner uses it: open it, create a form through the 'Create New Form'
// dialog, find a form's card.
import type { Locator, Page } from 'playwright-core';

export interface NewForm {
  name: string;
  targetEmail: string;
  allowedOrigin: string;
}

export async function openFormsTab(page: Page): Promise<void> {
  await page.goto('/dashboard/forms');
  await page.getByRole('button', { name: '+ New Form', exact: true }).waitFor();
}

/** The form's card: an <article> named by the form's name. */
export function formCard(page: Page, name: string): Locator {
  return page.getByRole('article', { name, exact: true });
}

/** The open 'Create New Form' dialog. */
export function createDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Create New Form', exact: true });
}

/** Opens the create dialog and fills its three inputs (the Forms tab must be showing). */
export async function fillCreateDialog(page: Page, form: NewForm): Promise<Locator> {
  await page.getByRole('button', { name: '+ New Form', exact: true }).click();
  const dialog = createDialog(page);
  await dialog.waitFor();
  await dialog.getByLabel('Form name', { exact: true }).fill(form.name);
  await dialog.getByLabel('Target e-mail address', { exact: true }).fill(form.targetEmail);
  await dialog.getByLabel('Allowed origin', { exact: true }).fill(form.allowedOrigin);
  return dialog;
}

/**
 * Creates a form through the dialog and waits for the embed box that follows ('Embed this
 * form:'), which stays open. Returns the new form's id, read from the embed code's action.
 */
export async function createFormThroughUi(page: Page, form: NewForm): Promise<string> {
  const dialog = await fillCreateDialog(page, form);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByText('Embed this form:', { exact: true }).waitFor();
  return formIdFromEmbedCode(await page.getByLabel('Embed code').inputValue());
}

/** The form id in an embed snippet's endpoint (`…/functions/v1/forms/{id}`). */
export function formIdFromEmbedCode(code: string): string {
  const id = code.match(/\/functions\/v1\/forms\/([0-9a-f-]{36})"/)?.[1];
  if (!id) throw new Error(`no form endpoint in the embed code:\n${code}`);
  return id;
}

/** Closes the dialog that shows the embed code ('Done'). */
export async function closeEmbedDialog(page: Page): Promise<void> {
  const box = page.getByText('Embed this form:', { exact: true });
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  await box.waitFor({ state: 'detached' });
}

/** The id a form's card shows as 'ID: {uuid}'. */
export async function formIdOnCard(page: Page, name: string): Promise<string> {
  const text = await formCard(page, name).getByText(/^ID:/).innerText();
  const id = text.replace(/^ID:\s*/, '').trim();
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`no form id on the card of "${name}": ${text}`);
  return id;
}
