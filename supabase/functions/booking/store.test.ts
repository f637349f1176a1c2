// @vitest-environment node
// The booking RPCs' arguments (the caps from limits.ts among them) and how each jsonb answer is
// read, over a fake `rpc`; an error or an answer the RPC never gives is thrown.
import { describe, expect, it } from 'vitest';
import type { RpcClient } from '../_shared/outbox/store.ts';
import {
  attemptCaps,
  bookingCaps,
  cancelByToken,
  loadBookingPage,
  loadCaptchaSecret,
  manageBooking,
  requestBooking,
  rescheduleByToken,
  takeAttempt,
} from './store.ts';

function answering(data: unknown, error: string | null = null) {
  const calls: [string, Record<string, unknown>][] = [];
  const db: RpcClient = {
    rpc: async (name, args) => {
      calls.push([name, args]);
      return error ? { data: null, error: { message: error } } : { data, error: null };
    },
  };
  return { db, calls };
}

const booking = {
  id: 'b1',
  starts_at: '2026-12-01T08:00:00+00:00',
  ends_at: '2026-12-01T08:30:00+00:00',
  name: 'Ada',
  time_zone: 'Europe/Berlin',
  visitor_time_zone: 'UTC',
  booking_form_name: 'Intro',
  location: '',
};

const input = {
  slug: 'intro',
  start: '2026-12-01T08:00:00.000Z',
  name: 'Ada',
  email: 'ada@example.com',
  note: 'hi',
  visitorTimeZone: 'UTC',
  client: 'c0ffee'.padEnd(64, '0'),
  linkPrefix: 'https://site.example/book/manage?token=',
};

describe('booking store', () => {
  it('passes the caps of limits.ts as p_caps', () => {
    expect(attemptCaps()).toEqual({ per_client_minute: 5, per_client_day: 20 });
    expect(bookingCaps()).toEqual({
      per_account_day: 200,
      per_recipient_day: 3,
    });
  });

  it('counts a request with booking_take_attempt and reads its answer', async () => {
    const { db, calls } = answering({ status: 'ok' });
    expect(await takeAttempt(db, 'intro', input.client)).toEqual({ status: 'ok' });
    expect(calls).toEqual([
      ['booking_take_attempt', { p_slug: 'intro', p_client: input.client, p_caps: attemptCaps() }],
    ]);
    const read = (data: unknown) => takeAttempt(answering(data).db, 'intro', input.client);
    expect(await read({ status: 'not_found' })).toEqual({ status: 'not_found' });
    expect(await read({ status: 'rate_limited', retry_after: 12.2 })).toEqual({
      status: 'rate_limited',
      retryAfter: 13,
    });
    expect(await read({ status: 'rate_limited' })).toEqual({
      status: 'rate_limited',
      retryAfter: 60,
    });
    await expect(read({ status: 'booked' })).rejects.toThrow(/booking_take_attempt answered/);
    await expect(read(null)).rejects.toThrow(/booking_take_attempt answered/);
    await expect(
      takeAttempt(answering(null, 'connection refused').db, 'intro', input.client),
    ).rejects.toThrow('booking_take_attempt failed: connection refused');
  });

  it('passes on what the database adds to a booking', async () => {
    const extra = { ...booking, slug: 'intro', duration_minutes: 30, status: 'confirmed' };
    const { db } = answering({ status: 'booked', booking: extra, visitor_mailed: true });
    expect(await requestBooking(db, input)).toMatchObject({ booking: extra });
  });

  it('calls booking_request with every argument and reads a booking', async () => {
    const { db, calls } = answering({ status: 'booked', booking, visitor_mailed: false });
    expect(await requestBooking(db, input)).toEqual({
      status: 'booked',
      booking,
      visitorMailed: false,
    });
    expect(calls).toEqual([
      [
        'booking_request',
        {
          p_slug: 'intro',
          p_start: '2026-12-01T08:00:00.000Z',
          p_name: 'Ada',
          p_email: 'ada@example.com',
          p_note: 'hi',
          p_visitor_time_zone: 'UTC',
          p_client: input.client,
          p_link_prefix: 'https://site.example/book/manage?token=',
          p_caps: bookingCaps(),
        },
      ],
    ]);
  });

  it('reads each refusal of booking_request', async () => {
    const read = (data: unknown) => requestBooking(answering(data).db, input);
    expect(await read({ status: 'not_found' })).toEqual({ status: 'not_found' });
    expect(await read({ status: 'invalid', field: 'email', message: 'Bad' })).toEqual({
      status: 'invalid',
      field: 'email',
      message: 'Bad',
    });
    expect(await read({ status: 'slot_taken', next: ['a', 2, 'b'] })).toEqual({
      status: 'slot_taken',
      next: ['a', 'b'],
    });
    expect(await read({ status: 'slot_taken' })).toEqual({ status: 'slot_taken', next: [] });
    expect(await read({ status: 'account_limit', retry_after: 0 })).toEqual({
      status: 'account_limit',
      retryAfter: 60,
    });
  });

  it('throws on an error, an unknown status or a booking without its id', async () => {
    await expect(requestBooking(answering(null, 'connection refused').db, input)).rejects.toThrow(
      'booking_request failed: connection refused',
    );
    await expect(requestBooking(answering({ status: 'maybe' }).db, input)).rejects.toThrow(
      /booking_request answered/,
    );
    // The client's limits are booking_take_attempt()'s now.
    await expect(
      requestBooking(answering({ status: 'rate_limited', retry_after: 60 }).db, input),
    ).rejects.toThrow(/booking_request answered/);
    await expect(requestBooking(answering(null).db, input)).rejects.toThrow();
    await expect(
      requestBooking(answering({ status: 'booked', booking: { name: 'x' } }).db, input),
    ).rejects.toThrow();
  });

  it('reads a booking page, its provider only when known', async () => {
    const { db, calls } = answering({
      id: 'f1',
      slug: 'intro',
      name: 'Intro',
      location: 'Room 1',
      duration_minutes: 45,
      time_zone: 'Europe/Paris',
      captcha_provider: 'turnstile',
      captcha_site_key: 'k',
    });
    expect(await loadBookingPage(db, 'intro')).toEqual({
      id: 'f1',
      slug: 'intro',
      name: 'Intro',
      location: 'Room 1',
      duration_minutes: 45,
      time_zone: 'Europe/Paris',
      captcha_provider: 'turnstile',
    });
    expect(calls).toEqual([['booking_page', { p_slug: 'intro' }]]);
    expect(await loadBookingPage(answering(null).db, 'x')).toBeNull();
    expect(
      (await loadBookingPage(answering({ id: 'f1', captcha_provider: 'other' }).db, 'x'))
        ?.captcha_provider,
    ).toBeNull();
    await expect(loadBookingPage(answering(null, 'down').db, 'x')).rejects.toThrow('down');
  });

  it('reads the CAPTCHA secret, none as null', async () => {
    const { db, calls } = answering('s3cret');
    expect(await loadCaptchaSecret(db, 'f1')).toBe('s3cret');
    expect(calls).toEqual([['booking_captcha_secret', { p_booking_form_id: 'f1' }]]);
    expect(await loadCaptchaSecret(answering(null).db, 'f1')).toBeNull();
    expect(await loadCaptchaSecret(answering('').db, 'f1')).toBeNull();
  });

  it('reads a manage link’s booking, none as null', async () => {
    const managed = { ...booking, slug: 'intro', duration_minutes: 30, status: 'confirmed' };
    const { db, calls } = answering(managed);
    expect(await manageBooking(db, 'tok')).toEqual(managed);
    expect(calls).toEqual([['booking_manage', { p_token: 'tok' }]]);
    expect(await manageBooking(answering(null).db, 'tok')).toBeNull();
  });

  it('cancels by token with the reason and reads each status', async () => {
    const { db, calls } = answering({ status: 'cancelled' });
    expect(await cancelByToken(db, 'tok', 'ill')).toBe('cancelled');
    expect(calls).toEqual([['booking_cancel_by_token', { p_token: 'tok', p_reason: 'ill' }]]);
    for (const status of ['not_found', 'already_cancelled', 'past'])
      expect(await cancelByToken(answering({ status }).db, 'tok', '')).toBe(status);
    await expect(cancelByToken(answering({ status: 'gone' }).db, 'tok', '')).rejects.toThrow();
  });

  it('reschedules by token with the link prefix and reads each status', async () => {
    const { db, calls } = answering({ status: 'rescheduled', booking });
    expect(await rescheduleByToken(db, 'tok', '2026-12-02T08:00:00.000Z', 'P=')).toEqual({
      status: 'rescheduled',
      booking,
    });
    expect(calls).toEqual([
      [
        'booking_reschedule_by_token',
        { p_token: 'tok', p_start: '2026-12-02T08:00:00.000Z', p_link_prefix: 'P=' },
      ],
    ]);
    const read = (data: unknown) => rescheduleByToken(answering(data).db, 't', 's', 'p');
    expect(await read({ status: 'not_found' })).toEqual({ status: 'not_found' });
    expect(await read({ status: 'past' })).toEqual({ status: 'past' });
    expect(await read({ status: 'already_cancelled' })).toEqual({ status: 'already_cancelled' });
    expect(await read({ status: 'invalid', field: 'start', message: 'm' })).toEqual({
      status: 'invalid',
      field: 'start',
      message: 'm',
    });
    expect(await read({ status: 'slot_taken', next: ['n'] })).toEqual({
      status: 'slot_taken',
      next: ['n'],
    });
    await expect(read({ status: 'booked' })).rejects.toThrow();
  });
});
