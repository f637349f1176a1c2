// The booking docs section: availability and its rules, time zones, no double booking, the
// confirmations and the single-use manage link, embedding, and the abuse limits.
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../components/testing/render';
import { site } from '../../../config/site';
import { docSection } from '../toc';
import { Booking } from './booking-docs';

vi.setConfig({ testTimeout: 20_000 });

describe('the booking docs section', () => {
  it('is a finished section at /docs#booking', () => {
    renderWithProviders(<Booking />);
    const section = screen.getByRole('region', { name: 'Booking' });
    expect(within(section).getByRole('heading', { level: 2 })).toHaveAttribute('id', 'booking');
    expect(section).not.toHaveTextContent('Coming soon');
    expect(docSection('booking')).not.toHaveProperty('soon');
  });

  it('documents creating a form, availability and its rules', () => {
    renderWithProviders(<Booking />);
    const section = screen.getByRole('region', { name: 'Booking' });
    expect(section).toHaveTextContent('Create new booking form');
    expect(section).toHaveTextContent(/This link is taken/);
    const rules = within(section).getByRole('table', { name: 'Availability rules' });
    for (const rule of ['Date overrides', 'Buffers', 'Minimum notice', 'Horizon', 'Daily maximum'])
      expect(within(rules).getByText(rule)).toBeInTheDocument();
  });

  it('explains time zones and why a time is never booked twice', () => {
    renderWithProviders(<Booking />);
    const section = screen.getByRole('region', { name: 'Booking' });
    expect(section).toHaveTextContent(/stored and computed in UTC/);
    expect(section).toHaveTextContent(/in their own time zone/);
    expect(section).toHaveTextContent(/across all of your booking forms/);
    expect(section).toHaveTextContent(/409 with the next free slots/);
  });

  it('describes the confirmations and the single-use link, hashed', () => {
    renderWithProviders(<Booking />);
    const section = screen.getByRole('region', { name: 'Booking' });
    expect(section).toHaveTextContent(/\.ics/);
    expect(section).toHaveTextContent(/It works once: it is stored only as a hash/);
    expect(section).toHaveTextContent(/Opening the link changes nothing/);
  });

  it('gives the link and the iframe snippet, copyable', () => {
    renderWithProviders(<Booking />);
    const section = screen.getByRole('region', { name: 'Booking' });
    expect(within(section).getByRole('button', { name: 'Copy: Booking link' })).toBeVisible();
    expect(
      within(section).getByRole('button', { name: 'Copy: Booking page in an iframe' }),
    ).toBeVisible();
    expect(section).toHaveTextContent(`src="${site.url}/book/your-slug?embed=1"`);
  });

  it('names the abuse limits and the clipped name of the visitor’s copy', () => {
    renderWithProviders(<Booking />);
    const section = screen.getByRole('region', { name: 'Booking' });
    expect(section).toHaveTextContent(/Per client: 5 requests a minute and 20 a day/);
    expect(section).toHaveTextContent(/Per account: 200 bookings a day/);
    expect(section).toHaveTextContent(/Per recipient: 3 confirmation e-mails a day to one address/);
    expect(section).toHaveTextContent(/only a clipped version of the name they typed/);
  });
});
