import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
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
    const { unmount } = renderWithProviders(<RegisterForm onSignedUp={() => {}} />);
    expect(screen.getByLabelText(/^Email/)).toHaveValue('hero@example.com');
    expect(peekSignupEmail()).toBe('');
    unmount();
    renderWithProviders(<RegisterForm onSignedUp={() => {}} />);
    expect(screen.getByLabelText(/^Email/)).toHaveValue('');
  });

  it('signs up with the name as metadata and reports success', async () => {
    mock.supabase.auth.signUp.mockResolvedValue({
      data: { session: { access_token: 't' }, user: {} },
      error: null,
    });
    const onSignedUp = vi.fn();
    renderWithProviders(<RegisterForm onSignedUp={onSignedUp} />);
    await fillAndSubmit();
    expect(mock.supabase.auth.signUp).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'secret123',
      options: { data: { name: 'Ada Lovelace' } },
    });
    expect(onSignedUp).toHaveBeenCalled();
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
    renderWithProviders(<RegisterForm onSignedUp={onSignedUp} />);
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(onSignedUp).not.toHaveBeenCalled();
  });
});
