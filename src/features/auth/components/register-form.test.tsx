import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../components/testing/render';
import { authError, makeSession, supabaseAuth } from '../../../components/testing/supabase-server';
import { peekSignupEmail, storeSignupEmail } from '../../../lib/signup-prefill';
import { RegisterForm } from './register-form';

const signUps = () => supabaseAuth.requests('post', 'signup');

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
    supabaseAuth.answer('signup', (body) =>
      makeSession({ id: 'new-user', email: String(body.email) }),
    );
    const onSignedUp = vi.fn();
    const onConfirmationSent = vi.fn();
    renderWithProviders(
      <RegisterForm onSignedUp={onSignedUp} onConfirmationSent={onConfirmationSent} />,
    );
    await fillAndSubmit();
    expect(signUps()).toContainEqual({
      body: {
        email: 'ada@example.com',
        password: 'secret123',
        data: { name: 'Ada Lovelace' },
      },
      // The confirmation link (when the project asks for one) signs in on the dashboard.
      query: { redirect_to: `${window.location.origin}/dashboard` },
    });
    expect(onSignedUp).toHaveBeenCalled();
    expect(onConfirmationSent).not.toHaveBeenCalled();
  });

  it('carries the plan picked on the pricing page into the sign-up metadata', async () => {
    supabaseAuth.answer('signup', (body) =>
      makeSession({ id: 'new-user', email: String(body.email) }),
    );
    renderWithProviders(
      <RegisterForm
        plan={{ id: 'pro', billing: 'annual' }}
        onSignedUp={() => {}}
        onConfirmationSent={() => {}}
      />,
    );
    await fillAndSubmit();
    expect(signUps()).toContainEqual(
      expect.objectContaining({
        body: expect.objectContaining({
          data: { name: 'Ada Lovelace', plan: 'pro', billing: 'annual' },
        }),
      }),
    );
  });

  it('reports the address the confirmation link went to when no session started', async () => {
    supabaseAuth.answer('signup', () => ({
      id: 'new-user',
      email: 'ada@example.com',
      identities: [{ provider: 'email' }],
    }));
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
    supabaseAuth.answer('signup', () => ({
      id: 'new-user',
      email: 'ada@example.com',
      identities: [],
    }));
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
    [[422, 'user_already_exists', 'User already registered'], 'This email is already in use.'],
    [
      [422, 'weak_password', 'Password should be at least 6 characters.', ['length']],
      'Password should be at least 6 characters.',
    ],
    [[400, 'email_address_invalid', 'Email address "a@b" is invalid'], 'Invalid email address.'],
    [
      [500, 'unexpected_failure', 'Database error saving new user'],
      'An unexpected error occurred.',
    ],
  ] as [[number, string, string, string[]?], string][])(
    'shows the catalogue message for %j',
    async ([status, code, text, reasons], message) => {
      supabaseAuth.answer('signup', () =>
        authError(status, code, text, reasons ? { weak_password: { reasons } } : {}),
      );
      const onSignedUp = vi.fn();
      const onConfirmationSent = vi.fn();
      renderWithProviders(
        <RegisterForm onSignedUp={onSignedUp} onConfirmationSent={onConfirmationSent} />,
      );
      await fillAndSubmit();
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(onSignedUp).not.toHaveBeenCalled();
      expect(onConfirmationSent).not.toHaveBeenCalled();
    },
  );
});
