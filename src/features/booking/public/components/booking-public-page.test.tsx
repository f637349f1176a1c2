import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders, SLOW } from '../../../../components/testing/render';
import {
  answerFunction,
  failRequests,
  pgError,
  sentTo,
  supabaseDb,
} from '../../../../components/testing/supabase-server';
import { BOOKED, FORM, fixBrowser, restoreBrowser, serveBookingForm } from '../testing/fixtures';
import { BookingPublicPage } from './booking-public-page';

vi.setConfig({ testTimeout: 30_000 });

function renderPage(slug = FORM.slug) {
  return renderWithProviders(
    <Routes>
      <Route path="/book/:slug" element={<BookingPublicPage />} />
    </Routes>,
    { route: `/book/${slug}` },
  );
}

const day = (name: RegExp) => screen.findByRole('button', { name }, SLOW);

/** Opens Monday 30 November and picks its 9:00 AM (Berlin). */
async function pickFirstSlot(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await day(/^Monday, November 30, 2026, free times/));
  await user.click(await screen.findByRole('button', { name: '9:00 AM' }));
  await screen.findByRole('heading', { name: 'Your details' });
}

async function fillDetails(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: /your name/i }), 'Grace');
  await user.type(screen.getByRole('textbox', { name: /your e-mail/i }), 'grace@example.com');
}

beforeEach(() => fixBrowser());
afterEach(() => restoreBrowser());

describe('the public booking page', () => {
  it('says so when the link names no booking form', async () => {
    serveBookingForm(null);
    renderPage('no-such-page');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'This booking link does not exist' },
        SLOW,
      ),
    ).toBeInTheDocument();
  });

  it('says the page is busy when the free times are read too often, and reads them again', async () => {
    serveBookingForm();
    failRequests(
      'post',
      'rpc/booking_slots',
      pgError('PT429', 'This booking page is busy. Try again in a minute.'),
      429,
    );
    renderPage();
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('This booking page is busy. Try again in a minute.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('answers a malformed slug without asking the database', async () => {
    serveBookingForm();
    renderPage('A');
    expect(
      await screen.findByRole('heading', { name: 'This booking link does not exist' }, SLOW),
    ).toBeInTheDocument();
    expect(supabaseDb.rpcsCalled()).toEqual([]);
  });

  it('shows the form, the visitor’s zone and the month’s free days in that zone', async () => {
    serveBookingForm();
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Intro call' }, SLOW),
    ).toBeVisible();
    expect(screen.getByText('A first talk about your project.')).toBeInTheDocument();
    expect(screen.getByText('30 minutes')).toBeInTheDocument();
    expect(screen.getByText('https://meet.example.com/ada')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Your time zone' })).toHaveValue('Europe/Berlin');
    expect(screen.getByText('Times in Europe/Berlin')).toBeInTheDocument();
    expect(screen.getByRole('grid', { name: 'November 2026' })).toBeInTheDocument();
    const free = await day(/^Monday, November 30, 2026, free times/);
    expect(free).not.toHaveAttribute('aria-disabled');
    expect(
      screen.getByRole('button', { name: /^Sunday, November 29, 2026, no free times/ }),
    ).toHaveAttribute('aria-disabled', 'true');
    // Asked from Berlin's midnight of today (28 November) to its midnight of 1 December, in UTC.
    expect(sentTo('post', 'rpc/booking_slots')).toContainEqual({
      p_slug: 'intro-call',
      p_from: '2026-11-27T23:00:00.000Z',
      p_to: '2026-11-30T23:00:00.000Z',
    });
    await userEvent.setup().click(free);
    const times = screen.getByRole('group', { name: 'Free times on Monday, November 30, 2026' });
    expect(
      within(times)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['9:00 AM', '9:30 AM']);
  });

  it('moves through the days with the keyboard and skips picking a day without slots', async () => {
    serveBookingForm();
    const user = userEvent.setup();
    renderPage();
    const monday = await day(/^Monday, November 30, 2026, free times/);
    // The one tab stop is the first free day.
    expect(monday).toHaveAttribute('tabindex', '0');
    monday.focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('button', { name: /^Sunday, November 29/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('group', { name: /Free times on/ })).not.toBeInTheDocument();
    // Into December: the next month loads, and its free day can be picked.
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(await screen.findByRole('grid', { name: 'December 2026' }, SLOW)).toBeInTheDocument();
    const wednesday = await day(/^Wednesday, December 2, 2026, free times/);
    await waitFor(() => expect(wednesday).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(
      await screen.findByRole('group', { name: 'Free times on Wednesday, December 2, 2026' }),
    ).toHaveTextContent('4:00 PM');
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(await screen.findByRole('grid', { name: 'November 2026' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeDisabled();
  });

  it('shows the days and times again in a zone the visitor picks', async () => {
    serveBookingForm();
    const user = userEvent.setup();
    renderPage();
    await day(/^Monday, November 30, 2026, free times/);
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Your time zone' }),
      'America/New_York',
    );
    expect(screen.getByText('Times in America/New York')).toBeInTheDocument();
    await user.click(await day(/^Monday, November 30, 2026, free times/));
    const times = screen.getByRole('group', { name: 'Free times on Monday, November 30, 2026' });
    expect(
      within(times)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['3:00 AM', '3:30 AM']);
    expect(sentTo('post', 'rpc/booking_slots')).toContainEqual({
      p_slug: 'intro-call',
      p_from: '2026-11-28T05:00:00.000Z',
      p_to: '2026-12-01T05:00:00.000Z',
    });
  });

  it('books a slot and confirms it in both zones', async () => {
    serveBookingForm();
    answerFunction('booking/book', 201, { booking: { ...BOOKED }, visitorMailed: true });
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    expect(
      screen.getByText(/Monday, November 30, 2026, 9:00 AM – 9:30 AM \(Europe\/Berlin, GMT\+1\)/),
    ).toBeInTheDocument();
    await fillDetails(user);
    await user.type(screen.getByRole('textbox', { name: /note/i }), 'About the shop');
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByRole('heading', { name: 'You’re booked' }, SLOW)).toHaveFocus();
    expect(sentTo('post', 'functions/booking/book')).toEqual([
      {
        slug: 'intro-call',
        start: '2026-11-30T08:00:00Z',
        name: 'Grace',
        email: 'grace@example.com',
        note: 'About the shop',
        timeZone: 'Europe/Berlin',
        website: '',
      },
    ]);
    expect(screen.getByText('Your time').nextElementSibling).toHaveTextContent(
      'Monday, November 30, 2026, 9:00 AM – 9:30 AM (Europe/Berlin, GMT+1)',
    );
    expect(screen.getByText('Host’s time').nextElementSibling).toHaveTextContent(
      'Monday, November 30, 2026, 3:00 AM – 3:30 AM (America/New York, EST)',
    );
    expect(screen.getByText('Where').nextElementSibling).toHaveTextContent(
      'https://meet.example.com/ada',
    );
    expect(
      screen.getByText('A confirmation with a calendar invitation was sent to grace@example.com.'),
    ).toBeInTheDocument();
  });

  it('says to keep the page when the visitor could not be e-mailed', async () => {
    serveBookingForm();
    answerFunction('booking/book', 201, { booking: { ...BOOKED }, visitorMailed: false });
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(
      await screen.findByText('We could not e-mail you a confirmation — keep this page.', {}, SLOW),
    ).toBeInTheDocument();
  });

  it('checks the details before sending, and hides the spam trap from people', async () => {
    serveBookingForm({ ...FORM, ask_note: false });
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    expect(screen.queryByRole('textbox', { name: /note/i })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('textbox', { name: /leave this field empty/i }),
    ).not.toBeInTheDocument();
    const trap = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    await user.type(screen.getByRole('textbox', { name: /your e-mail/i }), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('Enter your name.')).toBeInTheDocument();
    expect(
      screen.getByText('Enter a valid e-mail address, like name@example.com.'),
    ).toBeInTheDocument();
    expect(sentTo('post', 'functions/booking/book')).toEqual([]);
  });

  it('offers the next free times when someone just took the slot', async () => {
    serveBookingForm();
    answerFunction(
      'booking/book',
      409,
      {
        code: 'slot_taken',
        error: 'That time was just booked.',
        next: ['2026-11-30T08:30:00Z', '2026-12-02T15:00:00Z'],
      },
      { once: true },
    );
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Someone just booked this time.');
    const next = within(alert).getByRole('group', { name: 'Free times' });
    expect(
      within(next)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['9:30 AM', 'Wednesday, December 2, 2026, 4:00 PM']);
    answerFunction('booking/book', 201, {
      booking: { ...BOOKED, starts_at: '2026-11-30T08:30:00Z', ends_at: '2026-11-30T09:00:00Z' },
      visitorMailed: true,
    });
    await user.click(within(next).getByRole('button', { name: '9:30 AM' }));
    expect(screen.getByText(/9:30 AM – 10:00 AM \(Europe\/Berlin/)).toBeInTheDocument();
    // The details stay as typed.
    expect(screen.getByRole('textbox', { name: /your name/i })).toHaveValue('Grace');
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByRole('heading', { name: 'You’re booked' }, SLOW)).toBeInTheDocument();
    expect(
      sentTo('post', 'functions/booking/book').map((b) => (b as { start: string }).start),
    ).toEqual(['2026-11-30T08:00:00Z', '2026-11-30T08:30:00Z']);
  });

  it('marks the field the function refused', async () => {
    serveBookingForm();
    answerFunction('booking/book', 422, {
      code: 'invalid',
      field: 'email',
      error: 'This address cannot receive e-mail.',
    });
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /your e-mail/i })).toHaveAttribute(
        'aria-invalid',
        'true',
      ),
    );
    expect(screen.getAllByText('This address cannot receive e-mail.').length).toBeGreaterThan(0);
  });

  it('tells how long to wait after too many requests', async () => {
    serveBookingForm();
    answerFunction(
      'booking/book',
      429,
      { code: 'rate_limited', error: 'Too many requests' },
      { headers: { 'Retry-After': '90' } },
    );
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Too many booking requests from your connection.');
    expect(alert).toHaveTextContent('Try again in 2 minutes.');
  });

  it('says honestly that nothing is booked when the service is away', async () => {
    serveBookingForm();
    answerFunction(
      'booking/book',
      503,
      { error: 'unavailable' },
      { headers: { 'Retry-After': '30' } },
    );
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Your booking is not made yet');
    expect(alert).toHaveTextContent('Try again in 30 seconds.');
    expect(screen.getByRole('textbox', { name: /your name/i })).toHaveValue('Grace');
  });

  it('asks for the CAPTCHA the owner turned on, sends its token and starts it over after a refusal', async () => {
    serveBookingForm({ ...FORM, captcha_provider: 'turnstile', captcha_site_key: 'site-key-1' });
    answerFunction('booking/book', 403, { code: 'captcha', error: 'Please complete the CAPTCHA.' });
    const user = userEvent.setup();
    renderPage();
    await pickFirstSlot(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Complete the spam check above the button first.',
    );
    expect(sentTo('post', 'functions/booking/book')).toEqual([]);
    // The provider's script, loaded for explicit rendering; here it arrives and renders.
    const script = document.querySelector<HTMLScriptElement>(
      'script[src^="https://challenges.cloudflare.com/turnstile/v0/api.js"]',
    )!;
    const onload = new URL(script.src).searchParams.get('onload')!;
    expect(new URL(script.src).searchParams.get('render')).toBe('explicit');
    const reset = vi.fn();
    const render = vi.fn((_element: HTMLElement, options: { callback: (t: string) => void }) => {
      options.callback('captcha-token-1');
      return 'widget-1';
    });
    const globals = window as unknown as Record<string, unknown>;
    globals.turnstile = { render, reset };
    (globals[onload] as () => void)();
    await waitFor(() => expect(render).toHaveBeenCalledTimes(1));
    expect(render.mock.calls[0][1]).toMatchObject({ sitekey: 'site-key-1' });
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'The spam check did not pass.',
    );
    expect(sentTo('post', 'functions/booking/book')).toMatchObject([
      { captchaToken: 'captcha-token-1' },
    ]);
    await waitFor(() => expect(reset).toHaveBeenCalledWith('widget-1'));
    delete globals.turnstile;
  });

  it('says when a month has no free time and offers the next one', async () => {
    serveBookingForm(FORM, ['2026-12-02T15:00:00Z']);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('No free times this month.', {}, SLOW)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show next month' }));
    expect(await screen.findByRole('grid', { name: 'December 2026' })).toBeInTheDocument();
    expect(await day(/^Wednesday, December 2, 2026, free times/)).not.toHaveAttribute(
      'aria-disabled',
    );
  });
});
