import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import {
  failRequests,
  pgError,
  sentTo,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { seedForms } from '../testing/fixtures';
import { ConfirmAddressPage } from './confirm-address-page';

const TOKEN = 'ab'.repeat(32);
let backend: ReturnType<typeof seedForms>;

beforeEach(() => {
  backend = seedForms();
});

function open(query = `?token=${TOKEN}`) {
  renderWithProviders(<ConfirmAddressPage />, { route: `/confirm-address${query}` });
}
const confirmButton = () => screen.findByRole('button', { name: 'Confirm address' }, SLOW);
const rpcNames = () => supabaseDb.rpcsCalled();

describe('ConfirmAddressPage', () => {
  it('names the address and the form, and confirms nothing until the reader presses the button', async () => {
    const user = userEvent.setup();
    open();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Confirm this address');
    expect(document.title).toBe('Confirm address · tinyback.tools');
    expect(await screen.findByTestId('confirmation-subject', {}, SLOW)).toHaveTextContent(
      'The form “Sales leads” of a tinyback user wants the messages it receives e-mailed to sales@elsewhere.example.',
    );
    // Reading what the link is about is not confirming it.
    expect(rpcNames()).toEqual(['target_confirmation_details']);

    await user.click(await confirmButton());
    const heading = await screen.findByRole('heading', { name: 'Thank you for confirming' }, SLOW);
    expect(sentTo('post', 'rpc/confirm_target_email')).toContainEqual({ p_token: TOKEN });
    // The reader is the recipient: thanked for what they agreed to, not sent to a dashboard.
    expect(
      screen.getByText(/receives the messages of the form/, { exact: false }),
    ).toHaveTextContent(
      'From now on, sales@elsewhere.example receives the messages of the form “Sales leads”.',
    );
    expect(screen.queryByRole('link', { name: /your forms/i })).not.toBeInTheDocument();
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it.each([
    ['used', 'This link was already used'],
    ['expired', 'This link has expired'],
    ['invalid', 'This link is not valid'],
  ])('explains when the link is %s, and how to get a new one', async (status, title) => {
    const user = userEvent.setup();
    backend.answers.confirm = { status };
    open();
    await user.click(await confirmButton());
    expect(await screen.findByRole('heading', { name: title }, SLOW)).toHaveFocus();
    expect(screen.getByText(/Resend confirmation/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Confirm address' })).not.toBeInTheDocument();
  });

  it('says at once when the link was used already, with no button to press', async () => {
    backend.answers.details = { status: 'used' };
    open();
    expect(
      await screen.findByRole('heading', { name: 'This link was already used' }, SLOW),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Confirm address' })).not.toBeInTheDocument();
    expect(rpcNames()).toEqual(['target_confirmation_details']);
  });

  it('does not send a token that cannot be one', async () => {
    open('?token=not-a-token');
    expect(
      await screen.findByRole('heading', { name: 'This link is not valid' }, SLOW),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Confirm address' })).not.toBeInTheDocument();
    expect(rpcNames()).toEqual([]);
  });

  it('keeps the button for another try when the requests fail', async () => {
    const user = userEvent.setup();
    failRequests('post', 'rpc/*', pgError('PGRST000', 'down'));
    open();
    await user.click(await confirmButton());
    expect(
      await screen.findByText(/could not be confirmed. Check your connection/, {}, SLOW),
    ).toBeVisible();
    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Confirm address' }));
    expect(
      await screen.findByRole('heading', { name: 'Thank you for confirming' }, SLOW),
    ).toBeVisible();
  });
});
