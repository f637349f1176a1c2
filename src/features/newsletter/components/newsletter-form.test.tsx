import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../components/testing/render';
import { NewsletterForm } from './newsletter-form';

// The edge of the app: supabase-js's functions.invoke, which calls the `newsletter` function.
const invoke = vi.fn();
vi.mock('../../../lib/supabase', () => ({
  supabase: { functions: { invoke: (name: string, options: unknown) => invoke(name, options) } },
}));

describe('NewsletterForm', { timeout: 30_000 }, () => {
  beforeEach(() => invoke.mockReset());

  it('is disabled while invalid and shows the message only after a submit attempt', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NewsletterForm />);
    const button = screen.getByRole('button', { name: 'Subscribe' });
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    await user.type(screen.getByLabelText('Email address'), 'not-an-email');
    await user.tab();
    expect(screen.queryByText('Please enter a valid email.')).not.toBeInTheDocument();
    await user.click(button);
    expect(await screen.findByText('Please enter a valid email.')).toBeInTheDocument();
    expect(invoke).not.toHaveBeenCalled();
  });

  it('asks the newsletter function for one address, says to confirm by e-mail and clears the field', async () => {
    invoke.mockResolvedValue({ data: { ok: true }, error: null });
    const user = userEvent.setup();
    renderWithProviders(<NewsletterForm />);
    const input = screen.getByLabelText('Email address');
    await user.type(input, 'Ada@Example.com');
    const button = screen.getByRole('button', { name: 'Subscribe' });
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'false'));
    await user.click(button);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Thanks for subscribing! Check your inbox and confirm your subscription.',
    );
    expect(invoke).toHaveBeenCalledTimes(1);
    expect(invoke).toHaveBeenCalledWith('newsletter', { body: { email: 'ada@example.com' } });
    expect(input).toHaveValue('');
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(screen.queryByText('Please enter a valid email.')).not.toBeInTheDocument();
  });

  it('shows the German alert when the signup fails', async () => {
    // supabase-js resolves with an error (FunctionsHttpError) for a 4xx/5xx answer, e.g. 429.
    invoke.mockResolvedValue({ data: null, error: new Error('Edge Function returned 429') });
    const user = userEvent.setup();
    renderWithProviders(<NewsletterForm />);
    await user.type(screen.getByLabelText('Email address'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Es gab ein Problem bei der Anmeldung zum Newsletter.',
    );
    expect(screen.getByLabelText('Email address')).toHaveValue('ada@example.com');
  });
});
