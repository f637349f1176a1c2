import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../components/testing/render';
import { authError, supabaseAuth } from '../../../components/testing/supabase-server';
import { REMEMBER_KEY } from '../../../lib/session-storage';
import { LoginForm } from './login-form';

const signIns = () => supabaseAuth.sent('post', 'token?grant_type=password');
const invalidCredentials = () => authError(400, 'invalid_credentials', 'Invalid login credentials');

describe('LoginForm', { timeout: 30_000 }, () => {
  it('keeps the submit disabled until the e-mail is valid and a password is given', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSignedIn={() => {}} onForgotPassword={() => {}} />);
    const submit = screen.getByRole('button', { name: 'Sign in' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText(/^Email/), 'ada@');
    await user.type(screen.getByLabelText(/^Password/), 'pw');
    await waitFor(() => expect(submit).toBeDisabled());
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'example.com');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.clear(screen.getByLabelText(/^Password/));
    await waitFor(() => expect(submit).toBeDisabled());
    expect(screen.getByText('Remember me')).toBeInTheDocument();
  });

  it("signs in, or shows the server's message under the form", async () => {
    const user = userEvent.setup();
    const onSignedIn = vi.fn();
    // The first sign-in is refused, the second one succeeds.
    supabaseAuth.answer('token?grant_type=password', () =>
      signIns().length === 1 ? invalidCredentials() : undefined,
    );
    renderWithProviders(<LoginForm onSignedIn={onSignedIn} onForgotPassword={() => {}} />);
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid login credentials');
    expect(onSignedIn).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(signIns().at(-1)).toEqual({ email: 'ada@example.com', password: 'wrong' });
  });

  it('asks to confirm the e-mail first when the account is unconfirmed, and sends the link again', async () => {
    const user = userEvent.setup();
    const onSignedIn = vi.fn();
    supabaseAuth.answer('token?grant_type=password', () =>
      authError(400, 'email_not_confirmed', 'Email not confirmed'),
    );
    renderWithProviders(<LoginForm onSignedIn={onSignedIn} onForgotPassword={() => {}} />);
    await user.type(screen.getByLabelText(/^Email/), ' ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Confirm your e-mail first: open the link we sent to ada@example.com',
    );
    expect(onSignedIn).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Resend confirmation link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A new link is on its way to ada@example.com.',
    );
    expect(supabaseAuth.requests('post', 'resend')).toContainEqual({
      body: { type: 'signup', email: 'ada@example.com' },
      query: { redirect_to: `${window.location.origin}/dashboard` },
    });
    // Resending is not signing in.
    expect(signIns()).toHaveLength(1);

    // Another answer replaces the notice with the server's message.
    supabaseAuth.answer('token?grant_type=password', invalidCredentials);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Invalid login credentials'),
    );
    expect(
      screen.queryByRole('button', { name: 'Resend confirmation link' }),
    ).not.toBeInTheDocument();
  });

  it('opens the password reset on request', async () => {
    const user = userEvent.setup();
    const onForgotPassword = vi.fn();
    renderWithProviders(<LoginForm onSignedIn={() => {}} onForgotPassword={onForgotPassword} />);
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(onForgotPassword).toHaveBeenCalled();
  });

  it("stores the 'Remember me' choice before signing in", async () => {
    localStorage.clear();
    const user = userEvent.setup();
    const choiceAtSignIn: (string | null)[] = [];
    supabaseAuth.answer('token?grant_type=password', () => {
      choiceAtSignIn.push(localStorage.getItem(REMEMBER_KEY));
      return undefined;
    });
    renderWithProviders(<LoginForm onSignedIn={() => {}} onForgotPassword={() => {}} />);
    const remember = screen.getByRole('checkbox', { name: 'Remember me' });
    expect(remember).toBeChecked();
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret123');
    await user.click(remember);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(choiceAtSignIn).toEqual(['0']));
    await user.click(remember);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // Remembered again: the default needs no stored value.
    await waitFor(() => expect(choiceAtSignIn).toEqual(['0', null]));
  });
});
