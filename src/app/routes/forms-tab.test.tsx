import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../components/testing/render';
import {
  failRequests,
  holdRequests,
  pgError,
  requestsTo,
  sentTo,
  server,
} from '../../components/testing/supabase-server';
import { env } from '../../config/env';
import { makeCounts, makeForm, OWNER_ID, seedForms } from '../../features/forms/testing/fixtures';
import { seedUploadSettings } from '../../features/uploads/testing/fixtures';
import { FormsTab } from './forms-tab';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const onOpenMessages = vi.fn();

function renderPanel() {
  return renderWithProviders(<FormsTab onOpenMessages={onOpenMessages} />);
}

const card = (name: string) => screen.findByRole('article', { name }, SLOW);
/** The Edit dialog's footer button (the corner's × is named 'Close' too). */
const footerClose = (dialog: ReturnType<typeof within>) =>
  dialog
    .getAllByRole('button', { name: 'Close' })
    .find((button: HTMLElement) => button.textContent === 'Close')!;

async function openCreateDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: '+ New Form' }, SLOW));
  return screen.findByRole('dialog', { name: 'Create New Form' }, SLOW);
}

beforeEach(() => {
  onOpenMessages.mockReset();
  seedForms();
});

describe('FormsPanel', () => {
  it('shows a loading state, then the empty state', async () => {
    holdRequests('get', 'forms');
    const { unmount } = renderPanel();
    expect(screen.getByRole('heading', { name: 'Your Forms' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading forms' })).toBeInTheDocument();
    unmount();

    server.resetHandlers();
    seedForms();
    renderPanel();
    expect(
      await screen.findByText('No forms created yet. Start by adding a new form.', {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('shows an error with a retry that loads the forms', async () => {
    seedForms({ forms: [makeForm({ name: 'Contact' })] });
    failRequests('get', 'forms', pgError('PGRST000', 'down'));
    const user = userEvent.setup();
    renderPanel();
    expect(
      await screen.findByText('Your forms could not be loaded.', {}, SLOW),
    ).toBeInTheDocument();
    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await card('Contact')).toBeInTheDocument();
  });

  it('shows a card per form with its id, address, origin and message counts', async () => {
    const contact = makeForm({
      name: 'Contact',
      target_email: 'owner@example.com',
      allowed_origin: 'https://example.com',
    });
    const quiet = makeForm({ name: 'Quiet', notify_email: false });
    seedForms({
      forms: [quiet, contact],
      counts: [makeCounts(contact.id, 12, 3, 2)],
    });
    const user = userEvent.setup();
    renderPanel();

    const el = within(await card('Contact'));
    expect(el.getByRole('heading', { name: 'Contact' })).toBeInTheDocument();
    expect(el.getByText(`ID: ${contact.id}`)).toBeInTheDocument();
    expect(el.getByText('To: owner@example.com')).toBeInTheDocument();
    expect(el.getByText('Origin: https://example.com')).toBeInTheDocument();
    expect(await el.findByText('12 messages')).toBeInTheDocument();
    expect(el.getByText('3 unread')).toBeInTheDocument();
    for (const name of ['View messages', 'Embed code', 'Edit', 'Delete']) {
      expect(el.getByRole('button', { name })).toBeInTheDocument();
    }

    // A form without messages counts zero; a form that e-mails nobody says so.
    const other = within(await card('Quiet'));
    expect(other.getByText('0 messages')).toBeInTheDocument();
    expect(other.getByText('E-mail notifications off')).toBeInTheDocument();
    expect(el.queryByText('E-mail notifications off')).not.toBeInTheDocument();

    await user.click(el.getByRole('button', { name: 'View messages' }));
    expect(onOpenMessages).toHaveBeenCalledWith(contact.id);
  });

  it("shows bidirectional controls in a form's name as visible tokens", async () => {
    // Obeyed, U+202E would show 'Invoice\u202Efdp.exe' as 'Invoiceexe.pdf'.
    seedForms({ forms: [makeForm({ name: 'Invoice\u202Efdp.exe' })] });
    renderPanel();
    const el = within(await card('Invoice[U+202E]fdp.exe'));
    expect(el.getByRole('heading', { name: 'Invoice[U+202E]fdp.exe' })).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('\u202E');
  });

  it('validates the create dialog inline and sends nothing while a field is wrong', async () => {
    const user = userEvent.setup();
    renderPanel();
    const dialog = within(await openCreateDialog(user));
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    expect(await dialog.findByText('Enter a name for the form.')).toBeInTheDocument();
    expect(
      dialog.getByText('Enter the e-mail address that receives the submissions.'),
    ).toBeInTheDocument();
    expect(
      dialog.getByText('Enter the address of the website the form lives on.'),
    ).toBeInTheDocument();
    expect(dialog.getByLabelText(/Form name/)).toHaveAttribute('aria-invalid', 'true');

    await user.type(dialog.getByLabelText(/Form name/), 'Contact');
    await user.type(dialog.getByLabelText(/Target e-mail address/), 'owner@localhost');
    await user.type(dialog.getByLabelText(/Allowed origin/), 'https://example.com/contact');
    await user.click(dialog.getByRole('button', { name: 'Create' }));
    expect(
      await dialog.findByText('Enter a valid e-mail address, e.g. you@example.com.'),
    ).toBeInTheDocument();
    expect(dialog.getByText(/leave out the path/)).toBeInTheDocument();
    expect(dialog.queryByText('Enter a name for the form.')).not.toBeInTheDocument();
    expect(sentTo('post', 'forms')).toEqual([]);

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), SLOW);
  });

  it('creates a form from trimmed values with a browser-made id, then shows its embed code', async () => {
    const user = userEvent.setup();
    renderPanel();
    const dialog = within(await openCreateDialog(user));
    expect(dialog.getByLabelText(/Allowed origin/)).toHaveAttribute(
      'placeholder',
      'https://your-site.com',
    );
    await user.type(dialog.getByLabelText(/Form name/), '  Contact  ');
    await user.type(dialog.getByLabelText(/Target e-mail address/), ' owner@example.com ');
    await user.type(dialog.getByLabelText(/Allowed origin/), ' HTTPS://Example.com/ ');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(sentTo('post', 'forms')).toHaveLength(1), SLOW);
    const [row] = sentTo('post', 'forms') as Record<string, unknown>[];
    expect(row).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Contact',
      target_email: 'owner@example.com',
      allowed_origin: 'https://example.com',
    });

    // The create dialog gives way to the new form's embed code.
    const embed = within(await screen.findByRole('dialog', { name: '"Contact" is ready' }, SLOW));
    expect(screen.queryByRole('dialog', { name: 'Create New Form' })).not.toBeInTheDocument();
    expect(embed.getByText('Embed this form:')).toBeInTheDocument();
    const code = embed.getByRole('textbox', { name: 'Embed code' }) as HTMLTextAreaElement;
    expect(code).toHaveAttribute('readonly');
    expect(code.value).toContain(
      `action="${env.supabaseUrl}/functions/v1/forms/${String(row.id)}"`,
    );
    expect(code.value).toContain(`name="userId" value="${OWNER_ID}"`);
    expect(embed.getByRole('button', { name: 'Copy Embed Code' })).toBeInTheDocument();

    // Closed and opened again, the create dialog starts with empty inputs.
    await user.click(embed.getByRole('button', { name: 'Done' }));
    expect(await card('Contact')).toBeInTheDocument();
    const again = within(await openCreateDialog(user));
    expect(again.getByLabelText(/Form name/)).toHaveValue('');
    expect(again.getByLabelText(/Target e-mail address/)).toHaveValue('');
    expect(again.getByLabelText(/Allowed origin/)).toHaveValue('');
  });

  it('shows a refusal from the server in the dialog, on the field it concerns', async () => {
    failRequests(
      'post',
      'forms',
      pgError(
        '23514',
        'new row for relation "forms" violates check constraint "forms_allowed_origin_format"',
      ),
    );
    const user = userEvent.setup();
    renderPanel();
    const dialog = within(await openCreateDialog(user));
    await user.type(dialog.getByLabelText(/Form name/), 'Contact');
    await user.type(dialog.getByLabelText(/Target e-mail address/), 'owner@example.com');
    await user.type(dialog.getByLabelText(/Allowed origin/), 'https://example.com');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent(/server did not accept this origin/);
    expect(dialog.getByLabelText(/Allowed origin/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Create New Form' })).toBeInTheDocument();
  });

  it('says when the account has created too many forms recently', async () => {
    failRequests(
      'post',
      'forms',
      pgError(
        'PT429',
        'You have created too many forms recently. Try again in an hour.',
        'form_create_limit',
      ),
    );
    const user = userEvent.setup();
    renderPanel();
    const dialog = within(await openCreateDialog(user));
    await user.type(dialog.getByLabelText(/Form name/), 'Contact');
    await user.type(dialog.getByLabelText(/Target e-mail address/), 'owner@example.com');
    await user.type(dialog.getByLabelText(/Allowed origin/), 'https://example.com');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'You have created too many forms recently. Try again in an hour.',
    );
    // No field is to blame, and what was typed stays for a later try.
    expect(dialog.getByLabelText(/Form name/)).not.toHaveAttribute('aria-invalid', 'true');
    expect(dialog.getByLabelText(/Form name/)).toHaveValue('Contact');
  });

  // Long: many steps through a whole dialog in jsdom.
  it(
    'edits a form with its settings, each tab saved by its own button',
    { timeout: 90_000 },
    async () => {
      const contact = makeForm({ name: 'Contact', allowed_origin: 'https://example.com' });
      seedForms({ forms: [contact] });
      const user = userEvent.setup();
      renderPanel();
      await user.click(within(await card('Contact')).getByRole('button', { name: 'Edit' }));

      const dialog = within(await screen.findByRole('dialog', { name: 'Edit Form' }, SLOW));
      const tabs = dialog.getAllByRole('tab').map((tab) => tab.textContent);
      expect(tabs).toEqual([
        'Form',
        'Webhooks',
        'Autoresponder',
        'Spam protection',
        'Retention',
        'Files',
      ]);
      expect(dialog.getByRole('tab', { name: 'Form' })).toHaveAttribute('aria-selected', 'true');
      // The settings tabs are not rendered (nor their data requested) until opened.
      expect(dialog.queryByText(/Each new message is also posted/)).not.toBeInTheDocument();
      // No dialog-wide Save: the Form tab has its own, like every other tab.
      expect(dialog.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
      expect(dialog.getByRole('button', { name: 'Save form' })).toBeInTheDocument();
      expect(dialog.getByTestId('unsaved-summary')).toHaveTextContent('');
      expect(dialog.getByLabelText(/Form name/)).toHaveValue('Contact');
      await user.clear(dialog.getByLabelText(/Form name/));
      await user.type(dialog.getByLabelText(/Form name/), 'Support');

      // The tab with the unsaved edit is marked, named as such, and the footer says so.
      const formTab = dialog.getByRole('tab', { name: /^Form/ });
      expect(formTab).toHaveAccessibleName('Form(unsaved changes)');
      expect(dialog.getByTestId('unsaved-summary')).toHaveTextContent(
        'Unsaved changes: Form. Each tab saves with its own button.',
      );

      // Another tab: its own content and save; the Form tab keeps its edit meanwhile.
      const webhooksTab = dialog.getByRole('tab', { name: 'Webhooks' });
      await user.click(webhooksTab);
      expect(webhooksTab).toHaveAttribute('aria-selected', 'true');
      expect(await dialog.findByText(/Each new message is also posted/)).toBeInTheDocument();
      expect(dialog.getByLabelText(/Form name/)).not.toBeVisible();
      expect(dialog.queryByRole('button', { name: 'Save form' })).not.toBeInTheDocument();
      await user.click(formTab);
      expect(dialog.getByLabelText(/Form name/)).toHaveValue('Support');

      // Closing with an unsaved change asks first; cancelling keeps the dialog and the edit.
      await user.click(footerClose(dialog));
      const ask = await screen.findByRole(
        'alertdialog',
        { name: 'Discard unsaved changes?' },
        SLOW,
      );
      expect(ask).toHaveTextContent('Form has changes that are not saved.');
      await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument(), SLOW);
      expect(dialog.getByLabelText(/Form name/)).toHaveValue('Support');

      const notifications = dialog.getByRole('checkbox', { name: 'E-mail notifications' });
      expect(notifications).toBeChecked();
      await user.click(notifications);
      await user.type(dialog.getByLabelText(/Thank-you page/), 'example.com/thanks');
      await user.click(dialog.getByRole('button', { name: 'Save form' }));
      expect(
        await dialog.findByText(/Enter a full http:\/\/ or https:\/\/ address/),
      ).toBeInTheDocument();

      await user.clear(dialog.getByLabelText(/Thank-you page/));
      await user.type(dialog.getByLabelText(/Thank-you page/), ' https://example.com/thanks ');
      await user.click(dialog.getByRole('button', { name: 'Save form' }));

      await waitFor(() => expect(sentTo('patch', 'forms')).toHaveLength(1), SLOW);
      expect(requestsTo('patch', 'forms')).toContainEqual({
        query: expect.objectContaining({ id: `eq.${contact.id}` }),
        body: {
          name: 'Support',
          target_email: contact.target_email,
          allowed_origin: 'https://example.com',
          notify_email: false,
          redirect_url: 'https://example.com/thanks',
        },
      });
      // Saved: the dialog stays open, as after any tab's Save, with nothing left unsaved; Close
      // closes it without asking.
      expect(screen.getByRole('dialog', { name: 'Edit Form' })).toBeInTheDocument();
      await waitFor(() => expect(dialog.getByRole('tab', { name: 'Form' })).toBeInTheDocument());
      expect(dialog.getByTestId('unsaved-summary')).toHaveTextContent('');
      await user.click(footerClose(dialog));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), SLOW);
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      // Closing never turned the dialog into the create form under the pointer (nor created one).
      expect(sentTo('post', 'forms')).toEqual([]);
      const updated = within(await card('Support'));
      expect(updated.getByText('E-mail notifications off')).toBeInTheDocument();
      expect(updated.getByText('Thank-you page: https://example.com/thanks')).toBeInTheDocument();
    },
  );

  it('asks before closing over unsaved changes in a settings tab, and discards them on yes', async () => {
    const contact = makeForm({ name: 'Contact' });
    seedForms({ forms: [contact] });
    const user = userEvent.setup();
    renderPanel();
    await user.click(within(await card('Contact')).getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Form' }, SLOW));
    await user.click(dialog.getByRole('tab', { name: 'Webhooks' }));
    await user.type(
      await dialog.findByRole('textbox', { name: /Webhook URL/ }, SLOW),
      'https://example.com/hook',
    );
    expect(dialog.getByRole('tab', { name: /^Webhooks/ })).toHaveAccessibleName(
      'Webhooks(unsaved changes)',
    );
    // Escape asks too, naming the tab.
    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' }, SLOW);
    expect(ask).toHaveTextContent('Webhooks has changes that are not saved.');
    expect(sentTo('post', 'forms')).toEqual([]);
    await user.click(within(ask).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), SLOW);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows the uploads feature as the Files tab, marked while it holds unsaved changes', async () => {
    const contact = makeForm({ name: 'Contact' });
    seedForms({ forms: [contact] });
    seedUploadSettings();
    const user = userEvent.setup();
    renderPanel();
    await user.click(within(await card('Contact')).getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Form' }, SLOW));
    await user.click(dialog.getByRole('tab', { name: 'Files' }));
    const accept = await dialog.findByRole('checkbox', { name: 'Accept files' }, SLOW);
    expect(requestsTo('get', 'form_uploads')).toEqual([
      expect.objectContaining({ query: expect.objectContaining({ form_id: `eq.${contact.id}` }) }),
    ]);
    await user.click(accept);
    expect(dialog.getByRole('tab', { name: /^Files/ })).toHaveAccessibleName(
      'Files(unsaved changes)',
    );
  });

  it('asks before deleting, naming the form and how many messages go with it', async () => {
    const contact = makeForm({ name: 'Contact' });
    const other = makeForm({ name: 'Other' });
    seedForms({
      forms: [other, contact],
      counts: [makeCounts(contact.id, 10, 1, 2)],
    });
    const user = userEvent.setup();
    renderPanel();
    const el = within(await card('Contact'));
    await el.findByText('10 messages');
    await user.click(el.getByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole(
      'alertdialog',
      { name: 'Delete "Contact" and its 12 messages?' },
      SLOW,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument(), SLOW);
    expect(sentTo('delete', 'forms')).toEqual([]);

    await user.click(el.getByRole('button', { name: 'Delete' }));
    const confirm = within(await screen.findByRole('alertdialog', {}, SLOW));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(
      () => expect(sentTo('delete', 'forms')).toContainEqual({ id: `eq.${contact.id}` }),
      SLOW,
    );
    await waitFor(
      () => expect(screen.queryByRole('article', { name: 'Contact' })).not.toBeInTheDocument(),
      SLOW,
    );
    expect(screen.getByRole('article', { name: 'Other' })).toBeInTheDocument();
  });

  it('puts a card back and explains when the server refuses a delete', async () => {
    const contact = makeForm({ name: 'Contact' });
    seedForms({ forms: [contact] });
    failRequests('delete', 'forms', pgError('42501', 'permission denied for table forms'));
    const user = userEvent.setup();
    renderPanel();
    await user.click(within(await card('Contact')).getByRole('button', { name: 'Delete' }));
    const dialog = within(
      await screen.findByRole('alertdialog', { name: 'Delete "Contact"?' }, SLOW),
    );
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'You are not allowed to delete the form.',
    );
    // Behind the open dialog (hidden from assistive technology while it is modal).
    expect(
      await screen.findByRole('article', { name: 'Contact', hidden: true }, SLOW),
    ).toBeInTheDocument();
  });

  it('opens any form’s embed code from its card, as HTML or with fetch', async () => {
    const contact = makeForm({ name: 'Contact' });
    seedForms({ forms: [contact] });
    const user = userEvent.setup();
    renderPanel();
    await user.click(within(await card('Contact')).getByRole('button', { name: 'Embed code' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Embed "Contact"' }, SLOW));
    const html = dialog.getByRole('textbox', { name: 'Embed code' }) as HTMLTextAreaElement;
    expect(html.value).toContain(`/functions/v1/forms/${contact.id}`);
    // A plain form: its only script fills the idempotency key; it posts without fetch.
    expect(html.value).toContain('name="_idempotency"');
    expect(html.value).not.toContain('fetch(');

    await user.click(dialog.getByRole('tab', { name: 'JavaScript (fetch)' }));
    const js = dialog.getByRole('textbox', { name: 'Embed code' }) as HTMLTextAreaElement;
    expect(js.value).toContain(`headers: { Accept: 'application/json', "Idempotency-Key": key }`);
  });
});
