import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { renderWithProviders } from '../../../components/testing/render';
import { resetSupabaseMock } from '../../../components/testing/mocked-supabase';
import type { SupabaseMock } from '../../../components/testing/supabase-mock';
import { peekSignupEmail, storeSignupEmail } from '../../../lib/signup-prefill';
import { RegisterForm } from './register-form';

vi.mock('../../../lib/supabase', () => import('../../../components/testing/mocked-supabase'));

let mock: SupabaseMock;

async function fillAndSubmit(
  name = 'Ada Lovelace',
  email = 'ada@example.com',
  password = 'secret123',
) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/Full name/), name);
  const emailInput = screen.getByLabelText(/^Email/);
  await user.clear(emailInput);
  await user.type(emailInput, email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('RegisterForm', { timeout: 30_000 }, () => {
  beforeEach(() => {
    mock = resetSupabaseMock();
    sessionStorage.clear();
  });

  it("is prefilled once with the hero's e-mail", () => {
    storeSignupEmail('hero@example.com');
    const { unmount } = renderWithProviders(
      <RegisterForm onSignedUp={() => {}} onConfirmationSent={() => {}} />,
    );
    expect(screen.getByLabelText(/^Email/)).toHaveValue('hero@example.com');
    expect(peekSignupEmail()).toBe('');
    unmount();
    renderWithProviders(<RegisterForm onSignedUp={() => {}} onConfirmationSent={() => {}} />);
    expect(screen.getByLabelText(/^Email/)).toHaveValue('');
  });

  it('signs up with the name as metadata and reports success', async () => {
    mock.supabase.auth.signUp.mockResolvedValue({
      data: { session: { access_token: 't' }, user: {} },
      error: null,
    });
    const onSignedUp = vi.fn();
    const onConfirmationSent = vi.fn();
    renderWithProviders(
      <RegisterForm onSignedUp={onSignedUp} onConfirmationSent={onConfirmationSent} />,
    );
    await fillAndSubmit();
    expect(mock.supabase.auth.signUp).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'secret123',
      options: {
        data: { name: 'Ada Lovelace' },
        // The confirmation link (when the project asks for one) signs in on the dashboard.
        emailRedirectTo: `${window.location.origin}/dashboard`,
      },
    });
    expect(onSignedUp).toHaveBeenCalled();
    expect(onConfirmationSent).not.toHaveBeenCalled();
  });

  it('carries the plan picked on the pricing page into the sign-up metadata', async () => {
    mock.supabase.auth.signUp.mockResolvedValue({
      data: { session: { access_token: 't' }, user: {} },
      error: null,
    });
    renderWithProviders(
      <RegisterForm
        plan={{ id: 'pro', billing: 'annual' }}
        onSignedUp={() => {}}
        onConfirmationSent={() => {}}
      />,
    );
    await fillAndSubmit();
    expect(mock.supabase.auth.signUp).toHaveBeenCalledWith(
      expect.objectContaining({
        options: expect.objectContaining({
          data: { name: 'Ada Lovelace', plan: 'pro', billing: 'annual' },
        }),
      }),
    );
  });

  it('reports the address the confirmation link went to when no session started', async () => {
    mock.supabase.auth.signUp.mockResolvedValue({
      data: {
        session: null,
        user: { email: 'ada@example.com', identities: [{ provider: 'email' }] },
      },
      error: null,
    });
    const onSignedUp = vi.fn();
    const onConfirmationSent = vi.fn();
    renderWithProviders(
      <RegisterForm onSignedUp={onSignedUp} onConfirmationSent={onConfirmationSent} />,
    );
    await fillAndSubmit('Ada Lovelace', '  ada@example.com ');
    await waitFor(() => expect(onConfirmationSent).toHaveBeenCalledWith('ada@example.com'));
    expect(onSignedUp).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the address is in use when the answer is an account without identities', async () => {
    // Supabase's answer, with confirmations on, to a sign-up of an already confirmed address.
    mock.supabase.auth.signUp.mockResolvedValue({
      data: { session: null, user: { email: 'ada@example.com', identities: [] } },
      error: null,
    });
    const onSignedUp = vi.fn();
    const onConfirmationSent = vi.fn();
    renderWithProviders(
      <RegisterForm onSignedUp={onSignedUp} onConfirmationSent={onConfirmationSent} />,
    );
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('This email is already in use.');
    expect(onSignedUp).not.toHaveBeenCalled();
    expect(onConfirmationSent).not.toHaveBeenCalled();
  });

  it.each([
    [
      new AuthApiError('User already registered', 422, 'user_already_exists'),
      'This email is already in use.',
    ],
    [
      new AuthWeakPasswordError('Password should be at least 6 characters.', 422, ['length']),
      'Password should be at least 6 characters.',
    ],
    [
      new AuthApiError('Email address "a@b" is invalid', 400, 'email_address_invalid'),
      'Invalid email address.',
    ],
    [
      new AuthApiError('Database error saving new user', 500, 'unexpected_failure'),
      'An unexpected error occurred.',
    ],
  ])('shows the catalogue message for %s', async (error, message) => {
    mock.supabase.auth.signUp.mockResolvedValue({
      data: { session: null, user: null },
      error,
    });
    const onSignedUp = vi.fn();
    const onConfirmationSent = vi.fn();
    renderWithProviders(
      <RegisterForm onSignedUp={onSignedUp} onConfirmationSent={onConfirmationSent} />,
    );
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(onSignedUp).not.toHaveBeenCalled();
    expect(onConfirmationSent).not.toHaveBeenCalled();
  });
});
