import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { currentLocation, SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import {
  failRequests,
  pgError,
  sentTo,
  signInAs,
  supabaseDb,
  testUser,
} from '../../components/testing/supabase-server';
import { notify } from '../../components/toaster';
import { BookingFormPage } from './booking-form-page';
import { BookingPage } from './booking-page';
import { makeBooking, makeBookingForm, seedBooking } from './testing/fixtures';

function renderEditor(route: string) {
  return renderWithAuth(
    <Routes>
      <Route path="/dashboard/booking" element={<BookingPage />} />
      <Route path="/dashboard/booking/new" element={<BookingFormPage />} />
      <Route path="/dashboard/booking/:id" element={<BookingFormPage />} />
    </Routes>,
    { route },
  );
}

vi.mock('../../components/toaster', () => ({ notify: vi.fn() }));

const form = () => within(screen.getByRole('form', { name: 'Booking form settings' }));
const day = (name: string) => within(form().getByRole('group', { name }));

beforeEach(() => {
  signInAs(testUser());
  vi.mocked(notify).mockReset();
});

describe('BookingFormPage: new', { timeout: 40_000 }, () => {
  it('proposes the link from the name, shows the public link and creates the form', async () => {
    seedBooking();
    const user = userEvent.setup();
    renderEditor('/dashboard/booking/new');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'New booking form' }, SLOW),
    ).toBeInTheDocument();
    await user.type(form().getByRole('textbox', { name: /^Name/ }), 'Café Chat');
    expect(form().getByRole('textbox', { name: /^Link/ })).toHaveValue('cafe-chat');
    expect(form().getByText(`${window.location.origin}/book/cafe-chat`)).toBeInTheDocument();
    // The default week: Monday to Friday 09:00–17:00, the weekend off.
    expect(day('Monday').getByRole('textbox', { name: 'Monday start 1' })).toHaveValue('09:00');
    expect(day('Sunday').getByText('Unavailable')).toBeInTheDocument();
    expect(form().getByRole('combobox', { name: 'Time zone' })).toHaveValue(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );

    await user.click(form().getByRole('button', { name: 'Create booking form' }));
    await waitFor(() => expect(sentTo('post', 'booking_forms')).toHaveLength(1), SLOW);
    expect(sentTo('post', 'booking_forms')[0]).toEqual({
      name: 'Café Chat',
      slug: 'cafe-chat',
      description: '',
      location: '',
      duration_minutes: 30,
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      weekly: [[[540, 1020]], [[540, 1020]], [[540, 1020]], [[540, 1020]], [[540, 1020]], [], []],
      overrides: [],
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      min_notice_minutes: 240,
      max_days_ahead: 60,
      daily_max: null,
      ask_note: true,
    });
    const created = supabaseDb.rows('booking_forms')[0];
    await waitFor(
      () => expect(currentLocation()).toHaveTextContent(`/dashboard/booking/${String(created.id)}`),
      SLOW,
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Café Chat' }, SLOW),
    ).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith('success', 'Booking form created', expect.any(String));
  });

  it('keeps a link the owner typed when the name changes', async () => {
    seedBooking();
    const user = userEvent.setup();
    renderEditor('/dashboard/booking/new');
    const link = await form().findByRole('textbox', { name: /^Link/ }, SLOW);
    await user.type(link, 'My Link');
    expect(link).toHaveValue('my-link');
    await user.type(form().getByRole('textbox', { name: /^Name/ }), 'Intro');
    expect(link).toHaveValue('my-link');
  });

  it('checks weekly ranges: overlaps, order and times, and sends them sorted once fixed', async () => {
    seedBooking();
    const user = userEvent.setup();
    renderEditor('/dashboard/booking/new');
    await user.type(await form().findByRole('textbox', { name: /^Name/ }, SLOW), 'Intro');
    const monday = day('Monday');
    await user.click(monday.getByRole('button', { name: 'Add range, Monday' }));
    // The new range starts an hour after the last one ends.
    expect(monday.getByRole('textbox', { name: 'Monday start 2' })).toHaveValue('18:00');
    await user.clear(monday.getByRole('textbox', { name: 'Monday start 2' }));
    await user.type(monday.getByRole('textbox', { name: 'Monday start 2' }), '16:00');
    const tuesdayEnd = day('Tuesday').getByRole('textbox', { name: 'Tuesday end 1' });
    await user.clear(tuesdayEnd);
    await user.type(tuesdayEnd, '08:00');
    const wednesdayStart = day('Wednesday').getByRole('textbox', { name: 'Wednesday start 1' });
    await user.clear(wednesdayStart);
    await user.click(form().getByRole('button', { name: 'Create booking form' }));

    expect(await monday.findByText('Overlaps 16:00–19:00.', {}, SLOW)).toBeInTheDocument();
    expect(monday.getByText('Overlaps 09:00–17:00.')).toBeInTheDocument();
    expect(day('Tuesday').getByText('The end must be after the start.')).toBeInTheDocument();
    expect(day('Wednesday').getByText('Enter a start time.')).toBeInTheDocument();
    expect(
      screen.getByText('Some settings need a change: see the messages above.'),
    ).toBeInTheDocument();
    expect(sentTo('post', 'booking_forms')).toEqual([]);

    // Fixed: Monday's later range typed first, the other times corrected.
    const start2 = monday.getByRole('textbox', { name: 'Monday start 2' });
    await user.clear(start2);
    await user.type(start2, '7:00');
    const end2 = monday.getByRole('textbox', { name: 'Monday end 2' });
    await user.clear(end2);
    await user.type(end2, '09:00');
    await user.clear(tuesdayEnd);
    await user.type(tuesdayEnd, '24:00');
    await user.type(wednesdayStart, '10:30');
    await user.click(form().getByRole('button', { name: 'Create booking form' }));
    await waitFor(() => expect(sentTo('post', 'booking_forms')).toHaveLength(1), SLOW);
    const sent = sentTo('post', 'booking_forms')[0] as { weekly: number[][][] };
    expect(sent.weekly.slice(0, 3)).toEqual([
      [
        [420, 540],
        [540, 1020],
      ],
      [[540, 1440]],
      [[630, 1020]],
    ]);
  });

  it("copies Monday's hours to Tuesday–Friday", async () => {
    seedBooking();
    const user = userEvent.setup();
    renderEditor('/dashboard/booking/new');
    const monday = day('Monday');
    await user.click(await monday.findByRole('button', { name: 'Add range, Monday' }, SLOW));
    await user.click(monday.getByRole('button', { name: 'Copy to Tuesday–Friday' }));
    for (const name of ['Tuesday', 'Friday'])
      expect(day(name).getByRole('textbox', { name: `${name} start 2` })).toHaveValue('18:00');
    expect(day('Saturday').getByText('Unavailable')).toBeInTheDocument();
  });

  it('adds date overrides: a day off, or hours; checks dates and hours', async () => {
    seedBooking();
    const user = userEvent.setup();
    renderEditor('/dashboard/booking/new');
    await user.type(await form().findByRole('textbox', { name: /^Name/ }, SLOW), 'Intro');
    await user.click(form().getByRole('button', { name: 'Add date override' }));
    await user.click(form().getByRole('button', { name: 'Add date override' }));
    const first = within(form().getByRole('group', { name: 'Date override 1' }));
    const second = within(form().getByRole('group', { name: 'Date override 2' }));
    fireEvent.change(first.getByLabelText('Date'), { target: { value: '2026-12-24' } });
    fireEvent.change(second.getByLabelText('Date'), { target: { value: '2026-12-24' } });
    // The second is a working day with other hours.
    await user.click(second.getByRole('checkbox', { name: 'Day off' }));
    const start = second.getByRole('textbox', { name: '2026-12-24 start 1' });
    expect(start).toHaveValue('09:00');
    await user.click(second.getByRole('button', { name: 'Remove 2026-12-24 range 1' }));
    await user.click(form().getByRole('button', { name: 'Create booking form' }));
    expect(await first.findByText('This date has another override.', {}, SLOW)).toBeInTheDocument();
    expect(second.getByText('This date has another override.')).toBeInTheDocument();
    expect(second.getByText('Add a time range, or make it a day off.')).toBeInTheDocument();
    expect(sentTo('post', 'booking_forms')).toEqual([]);

    fireEvent.change(second.getByLabelText('Date'), { target: { value: '2026-12-31' } });
    await user.click(second.getByRole('button', { name: 'Add range, 2026-12-31' }));
    const lateStart = second.getByRole('textbox', { name: '2026-12-31 start 1' });
    await user.clear(lateStart);
    await user.type(lateStart, '10:00');
    const lateEnd = second.getByRole('textbox', { name: '2026-12-31 end 1' });
    await user.clear(lateEnd);
    await user.type(lateEnd, '12:00');
    await user.click(form().getByRole('button', { name: 'Create booking form' }));
    await waitFor(() => expect(sentTo('post', 'booking_forms')).toHaveLength(1), SLOW);
    expect((sentTo('post', 'booking_forms')[0] as { overrides: unknown }).overrides).toEqual([
      { date: '2026-12-24', ranges: [] },
      { date: '2026-12-31', ranges: [[600, 720]] },
    ]);
  });

  it('says "This link is taken" when another form has the link', async () => {
    seedBooking();
    failRequests(
      'post',
      'booking_forms',
      pgError('23505', 'duplicate key value violates unique constraint "booking_forms_slug_key"'),
      409,
    );
    const user = userEvent.setup();
    renderEditor('/dashboard/booking/new');
    await user.type(await form().findByRole('textbox', { name: /^Name/ }, SLOW), 'Intro call');
    await user.click(form().getByRole('button', { name: 'Create booking form' }));
    expect(await form().findByText('This link is taken', {}, SLOW)).toBeInTheDocument();
    expect(form().getByRole('textbox', { name: /^Link/ })).toHaveAttribute('aria-invalid', 'true');
    await user.type(form().getByRole('textbox', { name: /^Link/ }), '-2');
    expect(form().queryByText('This link is taken')).toBeNull();
  });
});

describe('BookingFormPage: saved', { timeout: 40_000 }, () => {
  it('shows the form’s settings, link and embed code, and saves changes', async () => {
    const saved = makeBookingForm({
      name: 'Intro call',
      slug: 'intro-call',
      time_zone: 'Europe/Berlin',
      weekly: [
        [
          [540, 720],
          [780, 1020],
        ],
        [],
        [],
        [],
        [],
        [],
        [],
      ],
      overrides: [{ date: '2026-12-24', ranges: [] }],
      daily_max: 3,
    });
    seedBooking({ forms: [saved] });
    const user = userEvent.setup();
    renderEditor(`/dashboard/booking/${saved.id}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Intro call' }, SLOW),
    ).toBeInTheDocument();
    const url = `${window.location.origin}/book/intro-call`;
    expect(screen.getByRole('link', { name: url })).toHaveAttribute('href', url);
    expect(screen.getByLabelText('Embed code')).toHaveTextContent(
      `<iframe src="${url}?embed=1" title="Book: Intro call"`,
    );
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy embed code' })).toBeInTheDocument();
    expect(day('Monday').getByRole('textbox', { name: 'Monday end 2' })).toHaveValue('17:00');
    expect(form().getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Berlin');
    expect(
      within(form().getByRole('group', { name: 'Date override 1' })).getByRole('checkbox', {
        name: 'Day off',
      }),
    ).toBeChecked();
    expect(form().getByRole('spinbutton', { name: /^Daily maximum/ })).toHaveValue(3);

    const duration = form().getByRole('spinbutton', { name: /^Duration/ });
    await user.clear(duration);
    await user.type(duration, '45');
    await user.clear(form().getByRole('spinbutton', { name: /^Daily maximum/ }));
    await user.click(form().getByRole('checkbox', { name: 'Ask for a note' }));
    await user.selectOptions(form().getByRole('combobox', { name: 'Time zone' }), 'Asia/Tokyo');
    expect(form().getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Tokyo');
    await user.click(form().getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sentTo('patch', 'booking_forms')).toHaveLength(1), SLOW);
    expect(sentTo('patch', 'booking_forms')[0]).toMatchObject({
      time_zone: 'Asia/Tokyo',
      duration_minutes: 45,
      daily_max: null,
      ask_note: false,
      weekly: [
        [
          [540, 720],
          [780, 1020],
        ],
        [],
        [],
        [],
        [],
        [],
        [],
      ],
      overrides: [{ date: '2026-12-24', ranges: [] }],
    });
    await waitFor(
      () =>
        expect(notify).toHaveBeenCalledWith(
          'success',
          'Booking form saved',
          '“Intro call” was saved.',
        ),
      SLOW,
    );
  });

  it('shows why a save was refused under the form', async () => {
    const saved = makeBookingForm({ name: 'Intro call' });
    seedBooking({ forms: [saved] });
    failRequests(
      'patch',
      'booking_forms',
      pgError('23514', 'new row violates check constraint "booking_forms_time_zone"'),
    );
    const user = userEvent.setup();
    renderEditor(`/dashboard/booking/${saved.id}`);
    await user.click(await screen.findByRole('button', { name: 'Save changes' }, SLOW));
    expect(
      await form().findByText(
        'Could not save the booking form: a setting is outside what is allowed (new row violates check constraint "booking_forms_time_zone").',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(notify).not.toHaveBeenCalled();
  });

  it('turns a CAPTCHA on with its keys, keeps the saved secret, and turns it off', async () => {
    const saved = makeBookingForm({ name: 'Intro call' });
    seedBooking({ forms: [saved] });
    supabaseDb.rpc('set_booking_captcha', (args) => ({
      captcha_provider: args.p_provider ?? null,
      captcha_site_key: args.p_site_key ?? null,
    }));
    const user = userEvent.setup();
    renderEditor(`/dashboard/booking/${saved.id}`);
    const section = within(await screen.findByRole('form', { name: 'Spam protection' }, SLOW));
    await user.selectOptions(section.getByRole('combobox', { name: 'CAPTCHA' }), 'turnstile');
    await user.click(section.getByRole('button', { name: 'Save spam protection' }));
    expect(await section.findByText('Enter the site key.', {}, SLOW)).toBeInTheDocument();
    expect(section.getByText('Enter the secret key.')).toBeInTheDocument();
    await user.type(section.getByRole('textbox', { name: /^Site key/ }), '0x4AAAAAAA');
    await user.type(section.getByLabelText(/^Secret key/), '0x4AAAA-secret');
    await user.click(section.getByRole('button', { name: 'Save spam protection' }));
    await waitFor(() => expect(sentTo('post', 'rpc/set_booking_captcha')).toHaveLength(1), SLOW);
    expect(sentTo('post', 'rpc/set_booking_captcha')[0]).toEqual({
      p_booking_form_id: saved.id,
      p_provider: 'turnstile',
      p_site_key: '0x4AAAAAAA',
      p_secret: '0x4AAAA-secret',
    });
    expect(
      await screen.findByText(/^On: visitors pass a Cloudflare Turnstile check/, {}, SLOW),
    ).toBeInTheDocument();
    expect(section.getByLabelText(/^Secret key/)).toHaveValue('');

    // Same provider, new site key: the saved secret stays.
    const siteKey = section.getByRole('textbox', { name: /^Site key/ });
    await user.clear(siteKey);
    await user.type(siteKey, 'other-key');
    await user.click(section.getByRole('button', { name: 'Save spam protection' }));
    await waitFor(() => expect(sentTo('post', 'rpc/set_booking_captcha')).toHaveLength(2), SLOW);
    expect(sentTo('post', 'rpc/set_booking_captcha')[1]).toMatchObject({
      p_site_key: 'other-key',
      p_secret: null,
    });

    await user.selectOptions(section.getByRole('combobox', { name: 'CAPTCHA' }), '');
    await user.click(section.getByRole('button', { name: 'Save spam protection' }));
    await waitFor(() => expect(sentTo('post', 'rpc/set_booking_captcha')).toHaveLength(3), SLOW);
    expect(sentTo('post', 'rpc/set_booking_captcha')[2]).toEqual({
      p_booking_form_id: saved.id,
      p_provider: null,
      p_site_key: null,
      p_secret: null,
    });
    expect(
      await screen.findByText(/^Off: visitors book without a check/, {}, SLOW),
    ).toBeInTheDocument();
  });

  it('lists this form’s bookings only', async () => {
    const saved = makeBookingForm({ name: 'Intro call' });
    const other = makeBookingForm({ name: 'Other' });
    seedBooking({
      forms: [saved, other],
      bookings: [
        makeBooking(saved, { name: 'Ada Lovelace' }),
        makeBooking(other, { name: 'Grace Hopper' }),
      ],
    });
    renderEditor(`/dashboard/booking/${saved.id}`);
    expect(await screen.findByText('Ada Lovelace', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByText('Grace Hopper')).toBeNull();
  });

  it('deletes the form after confirming, and goes back to the list', async () => {
    const saved = makeBookingForm({ name: 'Intro call' });
    seedBooking({ forms: [saved] });
    const user = userEvent.setup();
    renderEditor(`/dashboard/booking/${saved.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete booking form' }, SLOW));
    const dialog = await screen.findByRole('alertdialog', {}, SLOW);
    expect(within(dialog).getByText('Delete “Intro call”?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(
      () => expect(currentLocation()).toHaveTextContent(/^\/dashboard\/booking$/),
      SLOW,
    );
    expect(sentTo('delete', 'booking_forms')).toEqual([{ id: `eq.${saved.id}` }]);
    expect(supabaseDb.rows('booking_forms')).toEqual([]);
    expect(await screen.findByText(/No booking forms yet/, {}, SLOW)).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Booking form deleted',
      '“Intro call” and its bookings were deleted.',
    );
  });

  it('says when there is no such booking form', async () => {
    seedBooking();
    renderEditor('/dashboard/booking/00000000-0000-4000-c000-00000000ffff');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Booking form not found' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your booking forms' })).toHaveAttribute(
      'href',
      '/dashboard/booking',
    );
  });
});
