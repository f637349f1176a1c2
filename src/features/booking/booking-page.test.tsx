import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import {
  currentLocation,
  LocationProbe,
  renderWithProviders,
  SLOW,
} from '../../components/testing/render';
import { BookingComingSoonPage } from './booking-coming-soon-page';
import { BookingPage } from './booking-page';
import { BookingPreviewPage } from './booking-preview-page';

function renderBooking(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/dashboard/booking" element={<BookingPage />} />
        <Route path="/dashboard/booking/new" element={<BookingComingSoonPage />} />
        <Route path="/dashboard/booking/:id" element={<BookingComingSoonPage />} />
        <Route path="/book/:id" element={<BookingPreviewPage />} />
      </Routes>
      <LocationProbe />
    </>,
    { route },
  );
}

const cards = () =>
  screen
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.closest('li') as HTMLElement);

describe('BookingPage', { timeout: 30_000 }, () => {
  it('shows the heading, the subtitle and the two sample forms', async () => {
    renderBooking('/dashboard/booking');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your Booking Forms' }, SLOW),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Manage your booking links and track appointments.'),
    ).toBeInTheDocument();
    expect(cards()).toHaveLength(2);
    expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Intro call',
      'Website review',
    ]);
    expect(document.title).toBe('Your Booking Forms · tinyback.tools');
  });

  it("links each card's 'Manage' to its page and 'Preview' to its public link in a new tab", async () => {
    renderBooking('/dashboard/booking');
    await screen.findByRole('heading', { level: 1, name: 'Your Booking Forms' }, SLOW);
    for (const [card, id] of cards().map((card, i) => [card, ['cal1', 'cal2'][i]] as const)) {
      const manage = within(card).getByRole('link', { name: 'Manage' });
      expect(manage).toHaveAttribute('href', `/dashboard/booking/${id}`);
      const preview = within(card).getByRole('link', { name: 'Preview' });
      expect(preview).toHaveAttribute('href', `/book/${id}`);
      expect(preview).toHaveAttribute('target', '_blank');
      expect(preview.getAttribute('rel')).toContain('noopener');
      expect(preview).toHaveAccessibleDescription(/Opens in a new tab/);
    }
  });

  it("leads '+ Create new booking form' to a clear 'Coming soon' page and back", async () => {
    const user = userEvent.setup();
    renderBooking('/dashboard/booking');
    await user.click(await screen.findByRole('link', { name: '+ Create new booking form' }, SLOW));
    expect(currentLocation()).toHaveTextContent(/^\/dashboard\/booking\/new$/);
    expect(screen.getByRole('heading', { level: 1, name: 'Coming soon' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to your booking forms' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your Booking Forms' }),
    ).toBeInTheDocument();
  });

  it("shows 'Coming soon' for managing a form, naming it", async () => {
    renderBooking('/dashboard/booking/cal2');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Coming soon' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText(/Managing “Website review”/)).toBeInTheDocument();
  });
});

describe('BookingPreviewPage', { timeout: 30_000 }, () => {
  it('shows the public page of a sample form', async () => {
    renderBooking('/book/cal1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Intro call' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText('Online booking opens soon')).toBeInTheDocument();
  });

  it('says when a booking link does not exist', async () => {
    renderBooking('/book/nope');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Booking link not found' }, SLOW),
    ).toBeInTheDocument();
  });
});
