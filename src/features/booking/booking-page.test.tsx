import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { currentLocation, SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import {
  failRequests,
  holdRequests,
  pgError,
  sentTo,
  signInAs,
  supabaseDb,
  supabaseRealtime,
  testUser,
} from '../../components/testing/supabase-server';
import { notify } from '../../components/toaster';
import { useLiveSync } from '../../lib/live-sync';
import { BookingFormPage } from './booking-form-page';
import { BookingPage } from './booking-page';
import { bookingLiveBindings } from './live-bindings';
import { makeBooking, makeBookingForm, OWNER_ID, seedBooking } from './testing/fixtures';

vi.mock('../../components/toaster', () => ({ notify: vi.fn() }));

function Live() {
  useLiveSync(OWNER_ID, bookingLiveBindings);
  return null;
}

function renderBooking(route = '/dashboard/booking') {
  return renderWithAuth(
    <>
      <Live />
      <Routes>
        <Route path="/dashboard/booking" element={<BookingPage />} />
        <Route path="/dashboard/booking/new" element={<BookingFormPage />} />
        <Route path="/dashboard/booking/:id" element={<BookingFormPage />} />
      </Routes>
    </>,
    { route },
  );
}

const cardList = () => screen.getByRole('list', { name: 'Booking forms' });
const cards = () =>
  within(cardList())
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.closest('li') as HTMLElement);
const upcomingList = () => screen.getByRole('list', { name: 'Upcoming bookings' });

beforeEach(() => {
  signInAs(testUser());
  vi.mocked(notify).mockReset();
});

describe('BookingPage', { timeout: 30_000 }, () => {
  it('shows the heading, the subtitle and a card per booking form with its upcoming count', async () => {
    const intro = makeBookingForm({ name: 'Intro call', slug: 'intro-call', description: 'Talk.' });
    const review = makeBookingForm({ name: 'Website review', slug: 'review' });
    seedBooking({
      forms: [intro, review],
      bookings: [
        makeBooking(intro, { hours: 5 }),
        makeBooking(intro, { hours: 30 }),
        makeBooking(intro, {
          hours: 8,
          status: 'cancelled',
          cancelled_by: 'visitor',
          cancelled_at: new Date().toISOString(),
        }),
        makeBooking(review, { hours: -30 }),
      ],
    });
    renderBooking();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your Booking Forms' }, SLOW),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Manage your booking links and track appointments.'),
    ).toBeInTheDocument();
    expect(document.title).toBe('Your Booking Forms · tinyback.tools');
    await screen.findByRole('heading', { level: 2, name: 'Intro call' }, SLOW);
    expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Intro call',
      'Website review',
    ]);
    expect(
      await within(cards()[0]).findByText('2 upcoming bookings', {}, SLOW),
    ).toBeInTheDocument();
    expect(within(cards()[1]).getByText('0 upcoming bookings')).toBeInTheDocument();
    expect(within(cards()[0]).getByText('Talk.')).toBeInTheDocument();
  });

  it("links each card's 'Manage' to its page and 'Preview' to its public link in a new tab", async () => {
    const intro = makeBookingForm({ slug: 'intro-call' });
    const review = makeBookingForm({ slug: 'review' });
    seedBooking({ forms: [intro, review] });
    renderBooking();
    await screen.findAllByRole('link', { name: 'Manage' }, SLOW);
    for (const [card, form] of cards().map((card, i) => [card, [intro, review][i]] as const)) {
      const manage = within(card).getByRole('link', { name: 'Manage' });
      expect(manage).toHaveAttribute('href', `/dashboard/booking/${form.id}`);
      const preview = within(card).getByRole('link', { name: 'Preview' });
      expect(preview).toHaveAttribute('href', `/book/${form.slug}`);
      expect(preview).toHaveAttribute('target', '_blank');
      expect(preview.getAttribute('rel')).toContain('noopener');
      expect(preview).toHaveAccessibleDescription(/Opens in a new tab/);
    }
  });

  it("leads '+ Create new booking form' to the editor", async () => {
    seedBooking();
    const user = userEvent.setup();
    renderBooking();
    await user.click(await screen.findByRole('link', { name: '+ Create new booking form' }, SLOW));
    expect(currentLocation()).toHaveTextContent(/^\/dashboard\/booking\/new$/);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'New booking form' }, SLOW),
    ).toBeInTheDocument();
  });

  it('says when there are no booking forms yet, and offers the tile', async () => {
    seedBooking();
    renderBooking();
    expect(await screen.findByText(/No booking forms yet/, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+ Create new booking form' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Bookings' })).toBeNull();
  });

  it('shows a loading state, then an error with a retry', async () => {
    seedBooking();
    holdRequests('get', 'booking_forms');
    const { unmount } = renderBooking();
    expect(
      await screen.findByRole('status', { name: 'Loading your booking forms' }, SLOW),
    ).toBeInTheDocument();
    unmount();
    failRequests('get', 'booking_forms', pgError('PGRST000', 'down'), 503);
    renderBooking();
    expect(
      await screen.findByText('Your booking forms could not be loaded.', {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('BookingsList', { timeout: 30_000 }, () => {
  it('lists upcoming bookings soonest first with who, note and status, and past ones under Past', async () => {
    const intro = makeBookingForm({ name: 'Intro call', time_zone: 'Asia/Tokyo' });
    const later = makeBooking(intro, { hours: 50, name: 'Grace Hopper', note: 'About COBOL' });
    const soon = makeBooking(intro, { hours: 3, name: 'Ada Lovelace', email: 'ada@example.com' });
    const cancelled = makeBooking(intro, {
      hours: 10,
      name: 'Alan Turing',
      status: 'cancelled',
      cancelled_by: 'visitor',
      cancelled_at: new Date().toISOString(),
      cancel_reason: 'Travelling',
    });
    const over = makeBooking(intro, { hours: -40, name: 'Old Visitor' });
    seedBooking({ forms: [intro], bookings: [later, soon, cancelled, over] });
    const user = userEvent.setup();
    renderBooking();
    await screen.findByText('Ada Lovelace', {}, SLOW);
    const items = within(upcomingList()).getAllByRole('listitem');
    expect(
      items.map((item) => within(item).getByText(/Lovelace|Hopper|Turing/).textContent),
    ).toEqual([
      expect.stringContaining('Ada Lovelace'),
      expect.stringContaining('Alan Turing'),
      expect.stringContaining('Grace Hopper'),
    ]);
    expect(within(items[0]).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      'mailto:ada@example.com',
    );
    // The reader's zone (UTC here) and the form's, which differs.
    expect(within(items[0]).getByText(/in Asia\/Tokyo$/)).toBeInTheDocument();
    expect(within(items[0]).getByText('Confirmed')).toBeInTheDocument();
    expect(within(items[1]).getByText('Cancelled by visitor')).toBeInTheDocument();
    expect(within(items[1]).getByText('Travelling')).toBeInTheDocument();
    expect(within(items[1]).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(items[2]).getByText('About COBOL')).toBeInTheDocument();
    expect(screen.queryByText('Old Visitor')).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Past' }));
    expect(await screen.findByText('Old Visitor', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Upcoming bookings' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Past bookings' })).toBeInTheDocument();
  });

  it('says when there are no upcoming or past bookings', async () => {
    seedBooking({ forms: [makeBookingForm()] });
    const user = userEvent.setup();
    renderBooking();
    expect(await screen.findByText('No upcoming bookings', {}, SLOW)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Past' }));
    expect(await screen.findByText('No past bookings', {}, SLOW)).toBeInTheDocument();
  });

  it('shows an error with a retry when the bookings cannot be read', async () => {
    seedBooking({ forms: [makeBookingForm()] });
    failRequests('get', 'bookings', pgError('PGRST000', 'down'), 503);
    renderBooking();
    expect(
      await screen.findByText('Your bookings could not be loaded.', {}, SLOW),
    ).toBeInTheDocument();
  });

  it('cancels a booking with a message for the visitor, and shows it cancelled', async () => {
    const intro = makeBookingForm();
    const booking = makeBooking(intro, { hours: 6, name: 'Ada Lovelace' });
    seedBooking({ forms: [intro], bookings: [booking] });
    const user = userEvent.setup();
    renderBooking();
    const item = (await screen.findByText('Ada Lovelace', {}, SLOW)).closest('li')!;
    await user.click(within(item).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('alertdialog', {}, SLOW);
    expect(
      within(dialog).getByRole('heading', { name: 'Cancel the booking with Ada Lovelace?' }),
    ).toBeInTheDocument();
    await user.type(
      within(dialog).getByLabelText('Message to the visitor (optional)'),
      '  Sorry, I am ill. ',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
    expect(sentTo('post', 'rpc/booking_owner_cancel')).toEqual([
      { p_booking_id: booking.id, p_message: 'Sorry, I am ill.' },
    ]);
    const updated = screen.getByText('Ada Lovelace').closest('li')!;
    expect(await within(updated).findByText('Cancelled by owner', {}, SLOW)).toBeInTheDocument();
    expect(within(updated).getByText('Sorry, I am ill.')).toBeInTheDocument();
    expect(within(updated).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Booking cancelled',
      'Ada Lovelace is told by e-mail.',
    );
  });

  it('says when the booking was cancelled already, e.g. by the visitor meanwhile', async () => {
    const intro = makeBookingForm();
    const booking = makeBooking(intro, { hours: 6, name: 'Ada Lovelace' });
    seedBooking({ forms: [intro], bookings: [booking] });
    supabaseDb.rpc('booking_owner_cancel', () => ({ status: 'already_cancelled' }));
    const user = userEvent.setup();
    renderBooking();
    const item = (await screen.findByText('Ada Lovelace', {}, SLOW)).closest('li')!;
    await user.click(within(item).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('alertdialog', {}, SLOW);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
    expect(notify).toHaveBeenCalledWith(
      'info',
      'Already cancelled',
      'The booking with Ada Lovelace was cancelled before.',
    );
  });

  it('keeps the dialog open with the reason when cancelling fails', async () => {
    const intro = makeBookingForm();
    seedBooking({ forms: [intro], bookings: [makeBooking(intro, { name: 'Ada Lovelace' })] });
    failRequests('post', 'rpc/booking_owner_cancel', pgError('PGRST000', 'down'), 503);
    const user = userEvent.setup();
    renderBooking();
    const item = (await screen.findByText('Ada Lovelace', {}, SLOW)).closest('li')!;
    await user.click(within(item).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('alertdialog', {}, SLOW);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(
      await within(dialog).findByText(
        'Could not cancel the booking. Check your connection and try again.',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep booking' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
  });

  it('reads past bookings a page at a time, latest first', async () => {
    const intro = makeBookingForm();
    const past = Array.from({ length: 52 }, (_, i) =>
      makeBooking(intro, { hours: -(i + 1) * 3, name: `Past ${i + 1}` }),
    );
    seedBooking({ forms: [intro], bookings: past });
    const user = userEvent.setup();
    renderBooking();
    await user.click(await screen.findByRole('tab', { name: 'Past' }, SLOW));
    const list = await screen.findByRole('list', { name: 'Past bookings' }, SLOW);
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Past 1');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(52), SLOW);
    expect(within(list).getAllByRole('listitem')[51]).toHaveTextContent('Past 52');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('exports the shown bookings as CSV', async () => {
    const intro = makeBookingForm({ name: 'Intro call' });
    seedBooking({
      forms: [intro],
      bookings: [makeBooking(intro, { name: '=Ada', hours: 4 }), makeBooking(intro, { hours: 9 })],
    });
    const blobs: Blob[] = [];
    // jsdom has no object URLs: the download's Blob is taken where the page makes its URL.
    URL.createObjectURL = (blob: Blob) => {
      blobs.push(blob);
      return 'blob:bookings';
    };
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      const user = userEvent.setup();
      renderBooking();
      await screen.findByText('=Ada', {}, SLOW);
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(click).toHaveBeenCalledTimes(1);
      const text = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(blobs[0]);
      });
      const rows = text.trim().split('\r\n');
      expect(rows).toHaveLength(3);
      expect(rows[1]).toContain(`"Intro call","'=Ada"`);
      expect(notify).toHaveBeenCalledWith('success', 'Export ready', '2 bookings exported.');
    } finally {
      click.mockRestore();
      // @ts-expect-error jsdom's URL has none of its own
      delete URL.createObjectURL;
      // @ts-expect-error jsdom's URL has none of its own
      delete URL.revokeObjectURL;
    }
  });

  it('shows a new booking and a cancellation as Realtime reports them', async () => {
    const intro = makeBookingForm({ name: 'Intro call' });
    const first = makeBooking(intro, { hours: 20, name: 'Ada Lovelace' });
    seedBooking({ forms: [intro], bookings: [first] });
    renderBooking();
    await screen.findByText('Ada Lovelace', {}, SLOW);
    await waitFor(
      () =>
        expect(supabaseRealtime.channels()).toContainEqual(
          expect.objectContaining({
            changes: [
              expect.objectContaining({ table: 'bookings', filter: `user_id=eq.${OWNER_ID}` }),
            ],
          }),
        ),
      SLOW,
    );
    const arrived = makeBooking(intro, { hours: 2, name: 'Grace Hopper' });
    act(() => supabaseRealtime.change({ table: 'bookings', eventType: 'INSERT', new: arrived }));
    expect(await screen.findByText('Grace Hopper', {}, SLOW)).toBeInTheDocument();
    const names = within(upcomingList())
      .getAllByRole('listitem')
      .map((item) => within(item).getByText(/Hopper|Lovelace/).textContent);
    expect(names).toEqual([expect.stringContaining('Grace'), expect.stringContaining('Ada')]);
    expect(await screen.findByText('2 upcoming bookings', {}, SLOW)).toBeInTheDocument();

    act(() =>
      supabaseRealtime.change({
        table: 'bookings',
        eventType: 'UPDATE',
        new: {
          ...first,
          status: 'cancelled',
          cancelled_by: 'visitor',
          cancelled_at: new Date().toISOString(),
        },
      }),
    );
    expect(await screen.findByText('Cancelled by visitor', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText('1 upcoming booking')).toBeInTheDocument();
  });
});
