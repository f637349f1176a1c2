import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { pgError, resetFormsBackend, type FormsBackend } from '../testing/forms-supabase';
import { ConfirmAddressPage } from './confirm-address-page';

vi.mock('../../../lib/supabase', () => import('../testing/forms-supabase'));

const TOKEN = 'ab'.repeat(32);
let backend: FormsBackend;

beforeEach(() => {
  backend = resetFormsBackend();
});

function open(query = `?token=${TOKEN}`) {
  renderWithProviders(<ConfirmAddressPage />, { route: `/confirm-address${query}` });
  return screen.getByRole('button', { name: 'Confirm address' });
}

describe('ConfirmAddressPage', () => {
  it('confirms nothing until the reader presses the button', async () => {
    const user = userEvent.setup();
    const button = open();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Confirm this address');
    expect(document.title).toBe('Confirm address · tinyback.tools');
    expect(backend.calls.rpc).not.toHaveBeenCalled();

    await user.click(button);
    const heading = await screen.findByRole('heading', { name: 'Address confirmed' }, SLOW);
    expect(backend.calls.rpc).toHaveBeenCalledWith('confirm_target_email', { p_token: TOKEN });
    expect(screen.getByText('sales@elsewhere.example')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to your forms' })).toHaveAttribute(
      'href',
      '/dashboard/forms',
    );
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it.each([
    ['used', 'This link was already used'],
    ['expired', 'This link has expired'],
    ['invalid', 'This link is not valid'],
  ])('explains when the link is %s, and how to get a new one', async (status, title) => {
    const user = userEvent.setup();
    backend.state.confirmAnswer = { status };
    await user.click(open());
    expect(await screen.findByRole('heading', { name: title }, SLOW)).toHaveFocus();
    expect(screen.getByText(/Resend confirmation/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Confirm address' })).not.toBeInTheDocument();
  });

  it('does not send a token that cannot be one', async () => {
    const user = userEvent.setup();
    await user.click(open('?token=not-a-token'));
    expect(
      await screen.findByRole('heading', { name: 'This link is not valid' }, SLOW),
    ).toBeVisible();
    expect(backend.calls.rpc).not.toHaveBeenCalled();
  });

  it('keeps the button for another try when the request fails', async () => {
    const user = userEvent.setup();
    backend.fail('rpc', pgError('PGRST000', 'down'));
    await user.click(open());
    expect(
      await screen.findByText(/could not be confirmed. Check your connection/, {}, SLOW),
    ).toBeVisible();
    backend.succeed('rpc');
    await user.click(screen.getByRole('button', { name: 'Confirm address' }));
    expect(await screen.findByRole('heading', { name: 'Address confirmed' }, SLOW)).toBeVisible();
  });
});
