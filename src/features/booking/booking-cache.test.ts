import { describe, expect, it } from 'vitest';
import type { InfiniteData } from '@tanstack/react-query';
import { createTestQueryClient } from '../../components/testing/render';
import { bookingKeys } from './api/query-keys';
import { applyBookingChange } from './booking-cache';
import type { Booking } from './bookings';
import { hoursFromNow, makeBooking, makeBookingForm } from './testing/fixtures';

const formA = makeBookingForm();
const formB = makeBookingForm();
const upcomingAll = bookingKeys.bookings({ formId: null, when: 'upcoming' });
const upcomingA = bookingKeys.bookings({ formId: formA.id, when: 'upcoming' });
const pastAll = bookingKeys.bookings({ formId: null, when: 'past' });

const row = (booking: ReturnType<typeof makeBooking>) => booking as unknown as Booking;
const insert = (booking: ReturnType<typeof makeBooking>) => ({
  table: 'bookings',
  eventType: 'INSERT' as const,
  new: { ...booking, blocked: '["…","…")' },
  old: {},
});

function setup() {
  const client = createTestQueryClient();
  const soon = row(makeBooking(formA, { hours: 2 }));
  const later = row(makeBooking(formB, { hours: 48 }));
  const over = row(makeBooking(formA, { hours: -24 }));
  client.setQueryData(upcomingAll, [soon, later]);
  client.setQueryData(upcomingA, [soon]);
  client.setQueryData<InfiniteData<Booking[], unknown>>(pastAll, {
    pages: [[over]],
    pageParams: [null],
  });
  return { client, soon, later, over };
}

const ids = (rows: Booking[] | undefined) => rows?.map((booking) => booking.id);

describe('applyBookingChange', () => {
  it('puts a new booking into the upcoming lists it belongs in, in time order', () => {
    const { client, soon, later } = setup();
    const middle = makeBooking(formA, { hours: 24 });
    applyBookingChange(client, insert(middle));
    expect(ids(client.getQueryData(upcomingAll))).toEqual([soon.id, middle.id, later.id]);
    expect(ids(client.getQueryData(upcomingA))).toEqual([soon.id, middle.id]);
    const past = client.getQueryData<InfiniteData<Booking[]>>(pastAll);
    expect(past?.pages.flat()).toHaveLength(1);
  });

  it('leaves another form’s list alone', () => {
    const { client, soon } = setup();
    applyBookingChange(client, insert(makeBooking(formB, { hours: 3 })));
    expect(ids(client.getQueryData(upcomingA))).toEqual([soon.id]);
  });

  it('merges a cancellation into the row, keeping what the payload lacks', () => {
    const { client, soon } = setup();
    applyBookingChange(client, {
      table: 'bookings',
      eventType: 'UPDATE',
      new: { id: soon.id, status: 'cancelled', cancelled_by: 'visitor', cancel_reason: 'Ill' },
      old: {},
    });
    const rows = client.getQueryData<Booking[]>(upcomingA)!;
    expect(rows[0]).toMatchObject({
      id: soon.id,
      name: soon.name,
      status: 'cancelled',
      cancelled_by: 'visitor',
      cancel_reason: 'Ill',
    });
  });

  it('does not add a partial row it does not know', () => {
    const { client, soon, later } = setup();
    applyBookingChange(client, {
      table: 'bookings',
      eventType: 'UPDATE',
      new: { id: 'unknown', status: 'cancelled' },
      old: {},
    });
    expect(ids(client.getQueryData(upcomingAll))).toEqual([soon.id, later.id]);
    expect(client.getQueryData<InfiniteData<Booking[]>>(pastAll)?.pages.flat()).toHaveLength(1);
  });

  it('moves a booking rescheduled into the past out of Upcoming and into Past', () => {
    const { client, soon, over } = setup();
    const starts = hoursFromNow(-2);
    applyBookingChange(client, {
      table: 'bookings',
      eventType: 'UPDATE',
      new: {
        ...soon,
        starts_at: starts,
        ends_at: new Date(Date.parse(starts) + 30 * 60_000).toISOString(),
      },
      old: {},
    });
    expect(ids(client.getQueryData(upcomingA))).toEqual([]);
    expect(
      client
        .getQueryData<InfiniteData<Booking[]>>(pastAll)
        ?.pages.flat()
        .map((b) => b.id),
    ).toEqual([soon.id, over.id]);
  });

  it('removes a deleted booking everywhere', () => {
    const { client, soon, later } = setup();
    applyBookingChange(client, {
      table: 'bookings',
      eventType: 'DELETE',
      new: {},
      old: { id: soon.id },
    });
    expect(ids(client.getQueryData(upcomingAll))).toEqual([later.id]);
    expect(ids(client.getQueryData(upcomingA))).toEqual([]);
  });
});
