import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders, SLOW } from '../../../../components/testing/render';
import {
  answerFunction,
  failFunction,
  supabaseDb,
  type ReceivedRequest,
} from '../../../../components/testing/supabase-server';
import { MANAGED, TOKEN, fixBrowser, restoreBrowser, serveBookingForm } from '../testing/fixtures';
import { BookingManagePage } from './booking-manage-page';

vi.setConfig({ testTimeout: 30_000 });

const MANAGE = `booking/manage/${TOKEN}`;
const bookingRequests = () =>
  supabaseDb.requests
    .filter((r) => r.path.startsWith('functions/booking'))
    .map((r: ReceivedRequest) => ({ method: r.method, path: r.path, body: r.body }));

function renderPage(token = TOKEN) {
  return renderWithProviders(
    <Routes>
      <Route path="/book/manage" element={<BookingManagePage />} />
    </Routes>,
    { route: `/book/manage?token=${encodeURIComponent(token)}` },
  );
}

/** The function answers the manage link's GET with the booking, and 200 to every POST. */
function serveManage(
  posts: (path: string, body: unknown) => unknown = () => ({ status: 'cancelled' }),
) {
  supabaseDb.edgeFunction('booking', (body, request) =>
    request.method === 'GET' ? { booking: { ...MANAGED } } : posts(request.path, body),
  );
}

beforeEach(() => fixBrowser());
afterEach(() => restoreBrowser());

describe('the booking manage page', () => {
  it('shows the booking in both zones and changes nothing by being opened', async () => {
    serveManage();
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Intro call' }, SLOW),
    ).toBeVisible();
    expect(screen.getByText('Your time').nextElementSibling).toHaveTextContent(
      'Monday, November 30, 2026, 9:00 AM – 9:30 AM (Europe/Berlin, GMT+1)',
    );
    expect(screen.getByText('Host’s time').nextElementSibling).toHaveTextContent(
      '3:00 AM – 3:30 AM (America/New York, EST)',
    );
    expect(bookingRequests()).toEqual([
      { method: 'GET', path: `functions/${MANAGE}`, body: undefined },
    ]);
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Cancel booking' })).toBeVisible();
  });

  it('says a used or unknown link no longer works', async () => {
    failFunction(MANAGE, 404);
    renderPage();
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'This link has already been used or no longer works.' },
        SLOW,
      ),
    ).toBeInTheDocument();
  });

  it('asks nothing of the function for a malformed token', async () => {
    renderPage('short');
    expect(
      await screen.findByRole('heading', {
        name: 'This link has already been used or no longer works.',
      }),
    ).toBeInTheDocument();
    expect(bookingRequests()).toEqual([]);
  });

  it('cancels only after confirming, with the reason given', async () => {
    serveManage();
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }, SLOW));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this booking?' });
    await user.type(within(dialog).getByRole('textbox', { name: /reason/i }), 'Ill, sorry');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(
      await screen.findByRole('heading', { name: 'Your booking is cancelled' }, SLOW),
    ).toBeInTheDocument();
    expect(bookingRequests().filter((r) => r.method === 'POST')).toEqual([
      { method: 'POST', path: `functions/${MANAGE}/cancel`, body: { reason: 'Ill, sorry' } },
    ]);
  });

  it('keeps the dialog open with the reason when the booking had already been cancelled', async () => {
    serveManage();
    answerFunction(`${MANAGE}/cancel`, 409, {
      code: 'already_cancelled',
      error: 'Already cancelled',
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }, SLOW));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(await within(dialog).findByRole('alert', {}, SLOW)).toHaveTextContent(
      'This booking was already cancelled.',
    );
  });

  it('reschedules to a time picked in the calendar', async () => {
    serveManage();
    serveBookingForm();
    answerFunction(`${MANAGE}/reschedule`, 200, {
      booking: {
        ...MANAGED,
        starts_at: '2026-12-02T15:00:00Z',
        ends_at: '2026-12-02T15:30:00Z',
      },
      manageUrlSent: true,
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reschedule' }, SLOW));
    expect(await screen.findByRole('heading', { name: 'Pick a new time' })).toHaveFocus();
    // The booking's own slot is not offered as a new time.
    await user.click(
      await screen.findByRole('button', { name: /^Monday, November 30, 2026, free times/ }, SLOW),
    );
    const monday = screen.getByRole('group', { name: 'Free times on Monday, November 30, 2026' });
    expect(
      within(monday)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['9:30 AM']);
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    await user.click(
      await screen.findByRole('button', { name: /^Wednesday, December 2, 2026, free times/ }, SLOW),
    );
    await user.click(screen.getByRole('button', { name: '4:00 PM' }));
    expect(await screen.findByRole('heading', { name: 'Move to this time?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move my booking' }));
    expect(
      await screen.findByRole('heading', { name: 'Your booking is moved' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText('Your time').nextElementSibling).toHaveTextContent(
      'Wednesday, December 2, 2026, 4:00 PM – 4:30 PM (Europe/Berlin, GMT+1)',
    );
    expect(bookingRequests().filter((r) => r.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: `functions/${MANAGE}/reschedule`,
        body: { start: '2026-12-02T15:00:00Z' },
      },
    ]);
  });

  it('offers the next free times when the new time was just taken', async () => {
    serveManage();
    serveBookingForm();
    answerFunction(`${MANAGE}/reschedule`, 409, {
      code: 'slot_taken',
      error: 'Taken',
      next: ['2026-12-02T15:00:00Z'],
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reschedule' }, SLOW));
    await user.click(
      await screen.findByRole('button', { name: /^Monday, November 30, 2026, free times/ }, SLOW),
    );
    await user.click(screen.getByRole('button', { name: '9:30 AM' }));
    await user.click(await screen.findByRole('button', { name: 'Move my booking' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Someone just booked this time.');
    await user.click(
      within(alert).getByRole('button', { name: 'Wednesday, December 2, 2026, 4:00 PM' }),
    );
    expect(screen.getByText(/Wednesday, December 2, 2026, 4:00 PM – 4:30 PM/)).toBeInTheDocument();
  });

  it('shows a cancelled booking without actions', async () => {
    supabaseDb.edgeFunction('booking', () => ({ booking: { ...MANAGED, status: 'cancelled' } }));
    renderPage();
    expect(
      await screen.findByText(
        'This booking was cancelled. There is nothing more to do here.',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
  });

  it('keeps the booking when the visitor changes their mind', async () => {
    serveManage();
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }, SLOW));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep booking' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(bookingRequests().filter((r) => r.method === 'POST')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeVisible();
  });
});
