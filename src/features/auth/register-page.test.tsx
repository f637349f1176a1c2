import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../components/testing/render';
import { authError, supabaseAuth } from '../../components/testing/supabase-server';
import { RegisterPage } from './register-page';

/** The auth server's answer to a sign-up that waits for its e-mail: a user, no session. */
const awaitingConfirmation = () => ({
  id: 'new-user',
  email: 'ada@example.com',
  identities: [{ provider: 'email' }],
});

/** Signs up as Ada through the form; the project asks to confirm the e-mail first. */
async function signUpAwaitingConfirmation() {
  supabaseAuth.answer('signup', awaitingConfirmation);
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
    const user = await signUpAwaitingConfirmation();
    const button = screen.getByRole('button', { name: 'Resend confirmation link' });
    // Keyboard first: the button is reachable from the focused message and works with Enter.
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A new link is on its way to ada@example.com.',
    );
    expect(supabaseAuth.requests('post', 'resend')).toContainEqual({
      body: { type: 'signup', email: 'ada@example.com' },
      query: { redirect_to: `${window.location.origin}/dashboard` },
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the server's answer when the link cannot be sent again", async () => {
    // The first resend is refused, a later one goes through.
    supabaseAuth.answer('resend', () =>
      supabaseAuth.sent('post', 'resend').length === 1
        ? authError(
            429,
            'over_email_send_rate_limit',
            'For security purposes, you can only request this after 42 seconds.',
          )
        : undefined,
    );
    const user = await signUpAwaitingConfirmation();
    await user.click(screen.getByRole('button', { name: 'Resend confirmation link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'For security purposes, you can only request this after 42 seconds.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('');
    // A later try that works clears the error.
    await user.click(screen.getByRole('button', { name: 'Resend confirmation link' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('A new link is on its way');
  });
});

describe('RegisterPage with a plan picked on the pricing page', { timeout: 30_000 }, () => {
  it('says the account starts on Free and keeps the chosen plan with it', async () => {
    supabaseAuth.answer('signup', awaitingConfirmation);
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
    expect(supabaseAuth.sent('post', 'signup')[0]).toHaveProperty('data', {
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
