import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../components/testing/render';
import { NewsletterForm } from './newsletter-form';

const insert = vi.fn();
vi.mock('../../../lib/supabase', () => ({
  supabase: { from: (table: string) => ({ insert: (row: unknown) => insert(table, row) }) },
}));

describe('NewsletterForm', { timeout: 30_000 }, () => {
  beforeEach(() => insert.mockReset());

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
    expect(insert).not.toHaveBeenCalled();
  });

  it('subscribes, shows the subscribed state and clears the field', async () => {
    insert.mockResolvedValue({ error: null });
    const user = userEvent.setup();
    renderWithProviders(<NewsletterForm />);
    const input = screen.getByLabelText('Email address');
    await user.type(input, 'Ada@Example.com');
    const button = screen.getByRole('button', { name: 'Subscribe' });
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'false'));
    await user.click(button);
    expect(await screen.findByRole('status')).toHaveTextContent(/subscribed/i);
    expect(insert).toHaveBeenCalledWith('newsletter_subscribers', { email: 'ada@example.com' });
    expect(input).toHaveValue('');
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(screen.queryByText('Please enter a valid email.')).not.toBeInTheDocument();
  });

  it('shows the German alert when the signup fails', async () => {
    insert.mockResolvedValue({ error: { message: 'boom', code: '500' } });
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
