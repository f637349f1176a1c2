import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../components/testing/render';
import { failFunction, sentTo, supabaseDb } from '../../../components/testing/supabase-server';
import { NewsletterForm } from './newsletter-form';

// The edge of the app: the `newsletter` function, which supabase-js's functions.invoke calls.
const sentToNewsletter = () => sentTo('post', 'functions/newsletter');

describe('NewsletterForm', { timeout: 30_000 }, () => {
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
    expect(sentToNewsletter()).toEqual([]);
  });

  it('asks the newsletter function for one address, says to confirm by e-mail and clears the field', async () => {
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true }));
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
    expect(sentToNewsletter()).toEqual([{ email: 'ada@example.com' }]);
    expect(input).toHaveValue('');
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(screen.queryByText('Please enter a valid email.')).not.toBeInTheDocument();
  });

  it('shows the German alert when the signup fails', async () => {
    // supabase-js resolves with an error (FunctionsHttpError) for a 4xx/5xx answer, e.g. 429.
    failFunction('newsletter', 429);
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
