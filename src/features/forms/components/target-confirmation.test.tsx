import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { failRequests, pgError, sentTo } from '../../../components/testing/supabase-server';
import { notify } from '../../../components/toaster';
import { makeForm, seedForms } from '../testing/fixtures';
import { FormsPanel } from './forms-panel';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

const PENDING = makeForm({
  name: 'Pending',
  target_email: 'sales@elsewhere.example',
  target_verified: false,
});
const CONFIRMED = makeForm({ name: 'Confirmed', target_email: 'me@example.com' });

let backend: ReturnType<typeof seedForms>;

beforeEach(() => {
  vi.mocked(notify).mockReset();
  backend = seedForms({ forms: [PENDING, CONFIRMED] });
});

async function pendingCard() {
  renderWithProviders(<FormsPanel onOpenMessages={() => undefined} />);
  return within(await screen.findByRole('article', { name: 'Pending' }, SLOW));
}

describe('a form whose address awaits confirmation', () => {
  it('says so on its card with a resend action; a confirmed form shows neither', async () => {
    const card = await pendingCard();
    expect(card.getByText('Confirmation pending: check sales@elsewhere.example')).toBeVisible();
    expect(card.getByText(/stored here but not e-mailed/)).toBeVisible();
    expect(card.getByRole('button', { name: 'Resend confirmation' })).toBeEnabled();

    const confirmed = within(screen.getByRole('article', { name: 'Confirmed' }));
    expect(confirmed.queryByText(/Confirmation pending/)).not.toBeInTheDocument();
    expect(
      confirmed.queryByRole('button', { name: 'Resend confirmation' }),
    ).not.toBeInTheDocument();
  });

  it('resends the confirmation for that form and says where it goes', async () => {
    const user = userEvent.setup();
    const card = await pendingCard();
    await user.click(card.getByRole('button', { name: 'Resend confirmation' }));
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(1), SLOW);
    expect(sentTo('post', 'rpc/resend_target_confirmation')).toContainEqual({
      p_form_id: PENDING.id,
    });
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Confirmation e-mail on its way',
      'A new link goes to sales@elsewhere.example within a minute. It works for 24 hours.',
    );
  });

  it('tells a request already on its way, a daily cap and a failure apart', async () => {
    const user = userEvent.setup();
    const card = await pendingCard();
    const button = card.getByRole('button', { name: 'Resend confirmation' });

    backend.answers.resend = { status: 'already_requested' };
    await user.click(button);
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(1), SLOW);
    expect(notify).toHaveBeenLastCalledWith(
      'info',
      'Confirmation e-mail already on its way',
      expect.stringContaining('sales@elsewhere.example'),
    );

    backend.answers.resend = { status: 'limited' };
    await user.click(button);
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(2), SLOW);
    expect(notify).toHaveBeenLastCalledWith(
      'error',
      'Too many confirmation e-mails today',
      expect.any(String),
    );

    failRequests('post', 'rpc/*', pgError('PGRST000', 'down'));
    await user.click(button);
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(3), SLOW);
    expect(notify).toHaveBeenLastCalledWith(
      'error',
      'The confirmation could not be resent',
      'Check your connection and try again.',
    );
  });

  it('is announced when a form is created with an address that needs confirming', async () => {
    const user = userEvent.setup();
    renderWithProviders(<FormsPanel onOpenMessages={() => undefined} />);
    await user.click(await screen.findByRole('button', { name: '+ New Form' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create New Form' }, SLOW));
    await user.type(dialog.getByLabelText(/Form name/), 'Leads');
    await user.type(dialog.getByLabelText(/Target e-mail address/), 'leads@elsewhere.example');
    await user.type(dialog.getByLabelText(/Allowed origin/), 'https://example.com');
    await user.click(dialog.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(1), SLOW);
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Form created',
      expect.stringContaining('confirmation link to leads@elsewhere.example'),
    );
  });
});
