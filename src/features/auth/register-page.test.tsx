import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuthApiError } from '@supabase/supabase-js';
import { renderWithProviders } from '../../components/testing/render';
import { resetSupabaseMock } from '../../components/testing/mocked-supabase';
import type { SupabaseMock } from '../../components/testing/supabase-mock';
import { RegisterPage } from './register-page';

vi.mock('../../lib/supabase', () => import('../../components/testing/mocked-supabase'));

let mock: SupabaseMock;

/** Signs up as Ada through the form; the project asks to confirm the e-mail first. */
async function signUpAwaitingConfirmation() {
  mock.supabase.auth.signUp.mockResolvedValue({
    data: {
      session: null,
      user: { email: 'ada@example.com', identities: [{ provider: 'email' }] },
    },
    error: null,
  });
  const user = userEvent.setup();
  renderWithProviders(<RegisterPage />, { route: '/register' });
  await user.type(screen.getByLabelText(/Full name/), 'Ada Lovelace');
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'secret123');
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  await screen.findByRole('heading', { level: 1, name: 'Check your inbox' });
  return user;
}

describe('RegisterPage after a sign-up that waits for its e-mail', { timeout: 30_000 }, () => {
  beforeEach(() => {
    mock = resetSupabaseMock();
  });

  it('says "Check your inbox", names the address and moves focus to the message', async () => {
    await signUpAwaitingConfirmation();
    const message = screen.getByText(/We sent a confirmation link to/);
    expect(message).toHaveTextContent(
      'We sent a confirmation link to ada@example.com. Open it to finish creating your account',
    );
    expect(message).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('sends the link again on request, to the same address and landing page, and says so', async () => {
    mock.supabase.auth.resend.mockResolvedValue({ data: {}, error: null });
    const user = await signUpAwaitingConfirmation();
    const button = screen.getByRole('button', { name: 'Resend confirmation link' });
    // Keyboard first: the button is reachable from the focused message and works with Enter.
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A new link is on its way to ada@example.com.',
    );
    expect(mock.supabase.auth.resend).toHaveBeenCalledWith({
      type: 'signup',
      email: 'ada@example.com',
      options: { emailRedirectTo: `${window.location.origin}/dashboard` },
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the server's answer when the link cannot be sent again", async () => {
    mock.supabase.auth.resend.mockResolvedValue({
      data: {},
      error: new AuthApiError(
        'For security purposes, you can only request this after 42 seconds.',
        429,
        'over_email_send_rate_limit',
      ),
    });
    const user = await signUpAwaitingConfirmation();
    await user.click(screen.getByRole('button', { name: 'Resend confirmation link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'For security purposes, you can only request this after 42 seconds.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('');
    // A later try that works clears the error.
    mock.supabase.auth.resend.mockResolvedValue({ data: {}, error: null });
    await user.click(screen.getByRole('button', { name: 'Resend confirmation link' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('A new link is on its way');
  });
});

describe('RegisterPage with a plan picked on the pricing page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    mock = resetSupabaseMock();
  });

  it('says the account starts on Free and keeps the chosen plan with it', async () => {
    mock.supabase.auth.signUp.mockResolvedValue({
      data: {
        session: null,
        user: { email: 'ada@example.com', identities: [{ provider: 'email' }] },
      },
      error: null,
    });
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, { route: '/register?plan=starter&billing=annual' });
    expect(screen.getByText('Starter · €90/year')).toBeInTheDocument();
    expect(screen.getByTestId('plan-note')).toHaveTextContent(
      'Every account starts on Free (1 project, 100 submissions a month). We keep Starter with your account',
    );
    await user.type(screen.getByLabelText(/Full name/), 'Ada Lovelace');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your inbox' });
    expect(mock.supabase.auth.signUp.mock.calls[0]![0].options.data).toEqual({
      name: 'Ada Lovelace',
      plan: 'starter',
      billing: 'annual',
    });
  });

  it('sends no plan without one', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' });
    expect(screen.queryByTestId('plan-note')).not.toBeInTheDocument();
  });
});
