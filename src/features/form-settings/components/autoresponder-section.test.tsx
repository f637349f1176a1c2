import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import {
  failRequests,
  holdRequests,
  pgError,
  sentTo,
  server,
} from '../../../components/testing/supabase-server';
import { notify } from '../../../components/toaster';
import { SETTINGS_FORM_ID, seedSettings } from '../testing/fixtures';
import { AutoresponderSection } from './autoresponder-section';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

beforeEach(() => {
  vi.mocked(notify).mockReset();
  seedSettings();
});

const renderSection = (verified = true) =>
  renderWithProviders(
    <AutoresponderSection
      formId={SETTINGS_FORM_ID}
      formName="Support <desk>"
      allowedOrigin="https://shop.example"
      targetVerified={verified}
    />,
  );

describe('autoresponder settings', () => {
  it('shows a loading state, then an error with a retry that loads the saved reply', async () => {
    holdRequests('get', 'form_autoresponders');
    const first = renderSection();
    expect(await screen.findByText('Loading the autoresponder…')).toBeVisible();
    first.unmount();

    server.resetHandlers();
    seedSettings({
      form_autoresponders: [
        {
          form_id: SETTINGS_FORM_ID,
          enabled: true,
          subject: 'Got it, {{name}}',
          body: 'Saved body',
          updated_at: '2026-11-24T10:00:00Z',
        },
      ],
    });
    failRequests('get', 'form_autoresponders', pgError('500', 'boom'));
    renderSection();
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Could not load the autoresponder.');
    server.resetHandlers();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Subject' }, SLOW)).toHaveValue(
      'Got it, {{name}}',
    );
    expect(screen.getByRole('checkbox', { name: 'Send an automatic reply' })).toBeChecked();
    expect(screen.queryByText(/until this form’s address is confirmed/)).toBeNull();
  });

  it('says that no reply goes out while the form’s address is unconfirmed', async () => {
    renderSection(false);
    expect(
      await screen.findByText(/No replies go out until this form’s address is confirmed/),
    ).toBeVisible();
  });

  it('previews the reply as the database fills it, shown as text', async () => {
    const user = userEvent.setup();
    renderSection();
    const subject = await screen.findByRole('textbox', { name: 'Subject' }, SLOW);
    const body = screen.getByRole('textbox', { name: 'Reply' });
    await user.clear(subject);
    await user.click(subject);
    await user.paste('Hello {{name}} from {{ form }}');
    await user.clear(body);
    await user.click(body);
    await user.paste('Dear {{name}},\nre {{form}}: {{message}}{{company}} to {{email}}');

    const preview = screen.getByRole('figure', { name: 'Preview of the reply' });
    expect(within(preview).getByTestId('preview-subject')).toHaveTextContent(
      'Hello Ada Lovelace from Support <desk>',
    );
    // Nothing else a visitor typed is sent back: {{message}} and {{company}} stay empty.
    expect(within(preview).getByTestId('preview-body').textContent).toBe(
      'Dear Ada Lovelace,\nre Support <desk>:  to ada@example.com',
    );
    expect(within(preview).getByRole('status')).toHaveTextContent(
      'Left empty in every reply: {{message}}, {{company}}. Only {{name}}, {{email}}, {{form}} are filled.',
    );
    // The form's name is shown as text, never parsed as markup.
    expect(preview.querySelector('desk')).toBeNull();
    expect(preview).toHaveTextContent('on https://shop.example');
  });

  it('lists only the three merge fields and says why no other field is sent', async () => {
    renderSection();
    const body = await screen.findByRole('textbox', { name: 'Reply' }, SLOW);
    const help = document.getElementById(body.getAttribute('aria-describedby')!.split(' ')[0]!)!;
    const fields = [...help.querySelectorAll('code')].map((c) => c.textContent);
    expect(fields).toEqual(['{{name}}', '{{email}}', '{{form}}']);
    expect(help).toHaveTextContent('at most 10 in the subject and 10 in the reply');
    expect(help).toHaveTextContent(
      'the reply goes to an address nobody has confirmed, so it never repeats what a visitor typed',
    );
    // The default reply uses nothing that stays empty.
    expect(screen.getByRole('figure', { name: 'Preview of the reply' })).not.toHaveTextContent(
      'Left empty',
    );
  });

  it('fills only the first 10 merge fields, and refuses to save more', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Autoresponder' }, SLOW));
    const body = form.getByRole('textbox', { name: 'Reply' });
    await user.clear(body);
    await user.click(body);
    await user.paste('{{name}}|'.repeat(12));
    expect(form.getByTestId('preview-body').textContent).toBe(`${'Ada Lovelace|'.repeat(10)}||`);
    await user.click(form.getByRole('button', { name: 'Save reply' }));
    expect(
      await form.findByText('Use at most 10 merge fields in the reply; it has 12.'),
    ).toBeVisible();
    expect(body).toHaveAttribute('aria-invalid', 'true');
    expect(sentTo('post', 'form_autoresponders')).toEqual([]);
  });

  it('shows the database’s refusal of a template with too many merge fields', async () => {
    const user = userEvent.setup();
    failRequests(
      'post',
      'form_autoresponders',
      pgError(
        '23514',
        'new row for relation "form_autoresponders" violates check constraint "form_autoresponders_merge_fields"',
      ),
    );
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Autoresponder' }, SLOW));
    await user.click(form.getByRole('button', { name: 'Save reply' }));
    const sentence = 'Not saved: the subject and the reply may use at most 10 merge fields each.';
    expect(await form.findByRole('alert')).toHaveTextContent(sentence);
    expect(notify).toHaveBeenCalledWith('error', 'Autoresponder not saved', sentence);
  });

  it('asks for a reply before switching on, then saves and confirms', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Autoresponder' }, SLOW));
    await user.clear(form.getByRole('textbox', { name: 'Reply' }));
    await user.click(form.getByRole('checkbox', { name: 'Send an automatic reply' }));
    await user.click(form.getByRole('button', { name: 'Save reply' }));
    expect(await form.findByText('Write the reply before switching it on.')).toBeVisible();
    expect(sentTo('post', 'form_autoresponders')).toEqual([]);

    await user.click(form.getByRole('textbox', { name: 'Reply' }));
    await user.paste('Thanks, {{name}}!');
    await user.click(form.getByRole('button', { name: 'Save reply' }));
    await vi.waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        'Autoresponder on',
        'New messages get your reply.',
      ),
    );
    expect(sentTo('post', 'form_autoresponders')).toContainEqual({
      form_id: SETTINGS_FORM_ID,
      enabled: true,
      subject: 'Thanks for your message',
      body: 'Thanks, {{name}}!',
      from_name: null,
    });
  });

  it('sends as “<form> via tinyback” unless the owner names the sender, which it checks', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Autoresponder' }, SLOW));
    const sender = form.getByRole('textbox', { name: 'Sender name' });
    expect(sender).toHaveValue('');
    expect(sender).toHaveAttribute('placeholder', 'Support desk via tinyback');
    expect(form.getByTestId('preview-from')).toHaveTextContent('Support desk via tinyback');

    await user.type(sender, 'Help <help@shop.example>');
    await user.click(form.getByRole('button', { name: 'Save reply' }));
    expect(
      await form.findByText('Use a name without @, angle brackets or control characters.'),
    ).toBeVisible();
    expect(sentTo('post', 'form_autoresponders')).toEqual([]);

    await user.clear(sender);
    await user.type(sender, '  Shop Team  ');
    expect(form.getByTestId('preview-from')).toHaveTextContent('Shop Team');
    await user.click(form.getByRole('button', { name: 'Save reply' }));
    await vi.waitFor(() =>
      expect(sentTo('post', 'form_autoresponders')).toContainEqual(
        expect.objectContaining({ from_name: 'Shop Team' }),
      ),
    );
  });

  it('says why a save failed, inline and in a toast', async () => {
    const user = userEvent.setup();
    failRequests('post', 'form_autoresponders', pgError('42501', 'permission denied'));
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Autoresponder' }, SLOW));
    await user.click(form.getByRole('button', { name: 'Save reply' }));
    expect(await form.findByRole('alert')).toHaveTextContent(
      'You are not allowed to save the autoresponder.',
    );
    expect(notify).toHaveBeenCalledWith(
      'error',
      'Autoresponder not saved',
      'You are not allowed to save the autoresponder.',
    );
  });
});
