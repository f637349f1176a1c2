// A new form's target address, from the owner's side: the New Form dialog starts with the account's
// own address (which needs no confirmation), a form sent elsewhere is ready with a note that its
// confirmation is pending and its link is asked to leave at once, and once the address is
// confirmed the messages received meanwhile can be sent from the card.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { sentTo } from '../../../components/testing/supabase-server';
import { notify } from '../../../components/toaster';
import { makeForm, seedForms } from '../testing/fixtures';
import { FormsPanel } from './forms-panel';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

const ACCOUNT = 'me@owner.example';
let backend: ReturnType<typeof seedForms>;

beforeEach(() => {
  vi.mocked(notify).mockReset();
});

function renderPanel() {
  return renderWithProviders(<FormsPanel onOpenMessages={() => undefined} />);
}

async function openCreateDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: '+ New Form' }, SLOW));
  return within(await screen.findByRole('dialog', { name: 'Create New Form' }, SLOW));
}

describe('a new form’s target address', () => {
  it('starts as the account’s own address, which needs no confirmation', async () => {
    backend = seedForms({ accountEmail: ACCOUNT });
    const user = userEvent.setup();
    renderPanel();
    const dialog = await openCreateDialog(user);
    const target = dialog.getByLabelText(/Target e-mail address/);
    await waitFor(() => expect(target).toHaveValue(ACCOUNT), SLOW);
    expect(dialog.getByText(/Your account’s own address needs no confirmation/)).toBeVisible();

    await user.type(dialog.getByLabelText(/Form name/), 'Contact');
    await user.type(dialog.getByLabelText(/Allowed origin/), 'https://example.com');
    await user.click(dialog.getByRole('button', { name: 'Create' }));
    const ready = within(await screen.findByRole('dialog', { name: '"Contact" is ready' }, SLOW));
    expect(sentTo('post', 'forms')[0]).toMatchObject({ target_email: ACCOUNT });
    expect(ready.getByText(`New messages are e-mailed to ${ACCOUNT}.`)).toBeVisible();
    expect(ready.queryByTestId('confirmation-pending')).not.toBeInTheDocument();
    // Nothing to confirm: no mail run asked for.
    expect(sentTo('post', 'functions/forms/_mail')).toEqual([]);

    // Opened again, it starts with the account's address again.
    await user.click(ready.getByRole('button', { name: 'Done' }));
    const again = await openCreateDialog(user);
    expect(again.getByLabelText(/Target e-mail address/)).toHaveValue(ACCOUNT);
    expect(again.getByLabelText(/Form name/)).toHaveValue('');
  });

  it('is another address: the ready dialog says the confirmation is pending, and its link leaves now', async () => {
    backend = seedForms({ accountEmail: ACCOUNT });
    const user = userEvent.setup();
    renderPanel();
    const dialog = await openCreateDialog(user);
    const target = dialog.getByLabelText(/Target e-mail address/);
    await waitFor(() => expect(target).toHaveValue(ACCOUNT), SLOW);
    await user.clear(target);
    await user.type(target, 'sales@elsewhere.example');
    await user.type(dialog.getByLabelText(/Form name/), 'Sales');
    await user.type(dialog.getByLabelText(/Allowed origin/), 'https://example.com');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    const ready = within(await screen.findByRole('dialog', { name: '"Sales" is ready' }, SLOW));
    const note = ready.getByTestId('confirmation-pending');
    expect(note).toHaveTextContent('Confirmation pending: check sales@elsewhere.example');
    expect(note).toHaveTextContent(/messages are stored in your dashboard but not e-mailed/);
    await waitFor(() => expect(sentTo('post', 'functions/forms/_mail')).toContainEqual({}), SLOW);
  });

  it('leaves the field empty when no confirmed account address is known', async () => {
    backend = seedForms();
    const user = userEvent.setup();
    renderPanel();
    const dialog = await openCreateDialog(user);
    expect(dialog.getByLabelText(/Target e-mail address/)).toHaveValue('');
  });
});

describe('messages received before the address was confirmed', () => {
  it('are offered on the confirmed form’s card and sent on request', async () => {
    const confirmed = makeForm({ name: 'Sales', target_email: 'sales@elsewhere.example' });
    const waiting = makeForm({ name: 'Waiting', target_verified: false });
    backend = seedForms({
      forms: [confirmed, waiting],
      held: [
        { form_id: confirmed.id, held: 3 },
        { form_id: waiting.id, held: 2 },
      ],
    });
    backend.answers.sendHeld = { status: 'queued', queued: 3, remaining: 0 };
    const user = userEvent.setup();
    renderPanel();

    const card = within(await screen.findByRole('article', { name: 'Sales' }, SLOW));
    const note = await card.findByTestId('held-messages', {}, SLOW);
    expect(note).toHaveTextContent(
      '3 messages arrived before sales@elsewhere.example was confirmed and were not e-mailed.',
    );
    // Nothing is offered for an address still waiting for its confirmation.
    const other = within(screen.getByRole('article', { name: 'Waiting' }));
    expect(other.queryByTestId('held-messages')).not.toBeInTheDocument();

    await user.click(card.getByRole('button', { name: 'Send the 3 messages received meanwhile' }));
    await waitFor(
      () =>
        expect(notify).toHaveBeenCalledWith(
          'success',
          '3 messages are on their way to sales@elsewhere.example',
          undefined,
        ),
      SLOW,
    );
    expect(sentTo('post', 'rpc/send_held_notifications')).toContainEqual({
      p_form_id: confirmed.id,
    });
    expect(sentTo('post', 'functions/forms/_mail')).toContainEqual({});
    // Read again: nothing left, the note goes.
    await waitFor(() => expect(card.queryByTestId('held-messages')).not.toBeInTheDocument(), SLOW);
  });

  it('says what waits when the account’s notification caps hold some back', async () => {
    const form = makeForm({ name: 'Busy', target_email: 'busy@elsewhere.example' });
    backend = seedForms({ forms: [form], held: [{ form_id: form.id, held: 1 }] });
    backend.answers.sendHeld = { status: 'limited', remaining: 1 };
    const user = userEvent.setup();
    renderPanel();
    const card = within(await screen.findByRole('article', { name: 'Busy' }, SLOW));
    await user.click(
      await card.findByRole('button', { name: 'Send the message received meanwhile' }, SLOW),
    );
    await waitFor(
      () =>
        expect(notify).toHaveBeenCalledWith(
          'error',
          'Not sent yet',
          expect.stringMatching(/100 notification e-mails an hour/),
        ),
      SLOW,
    );
    expect(sentTo('post', 'functions/forms/_mail')).toEqual([]);
  });
});
