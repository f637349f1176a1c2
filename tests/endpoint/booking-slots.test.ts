// Booking slots and the no-double-booking guarantee, in the database the migrations build: slots
// for an owner in Europe/Berlin read by a visitor in America/New_York across both daylight-saving
// changes of each zone (the dates found with Intl, so the suite holds whatever today is), a local
// hour that does not exist and one that repeats, buffers, notice, horizon, daily maximum and
// overrides; the exclusion constraint itself; and races of 50 requests for one slot and for
// overlapping slots of two booking forms of one owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import pg from 'pg';
import { createAuthUser, superuserPool } from '../support/db.ts';
import { newClient } from '../support/supabase-users.ts';
import {
  createBookingForm,
  dstChangeDates,
  EVERY_DAY_NINE_TO_FIVE,
  freeSlots,
  requestBooking,
  zonedInstant,
} from '../support/booking.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
const users: string[] = [];

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const HOUR = 3_600_000;

async function newOwner(): Promise<string> {
  const { id } = await createAuthUser(pool, 'Booking owner');
  users.push(id);
  return id;
}

/** The slots of one local date of `zone`. */
async function slotsOfLocalDay(slug: string, zone: string, date: string): Promise<string[]> {
  const from = zonedInstant(zone, date, '00:00');
  const to = new Date(from.getTime() + 26 * HOUR);
  const slots = await freeSlots(pool, slug, from, to);
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone });
  return slots.filter((s) => day.format(new Date(s)) === date);
}

const clock = (zone: string) => (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

const dayBefore = (date: string) =>
  new Date(Date.parse(date) - 86_400_000).toISOString().slice(0, 10);

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});

afterAll(async () => {
  await pool.query('delete from auth.users where id = any($1)', [users]);
  await pool.end();
});

describe('slots across daylight-saving changes (owner in Berlin, visitor in New York)', () => {
  const berlin = dstChangeDates(BERLIN);
  const newYork = dstChangeDates(NEW_YORK);

  it('finds both changes of each zone within the next year', () => {
    expect(berlin.map((c) => c.gain).sort()).toEqual([-60, 60]);
    expect(newYork.map((c) => c.gain).sort()).toEqual([-60, 60]);
  });

  it('offers 09:00–17:00 Berlin time on every change day and the day before it, in real UTC instants', async () => {
    const owner = await newOwner();
    const { slug } = await createBookingForm(pool, owner, { weekly: EVERY_DAY_NINE_TO_FIVE });
    for (const { date } of [...berlin, ...newYork]) {
      for (const day of [dayBefore(date), date]) {
        const slots = await slotsOfLocalDay(slug, BERLIN, day);
        expect(slots.map(clock(BERLIN)), `${day} in Berlin`).toEqual([
          '09:00',
          '10:00',
          '11:00',
          '12:00',
          '13:00',
          '14:00',
          '15:00',
          '16:00',
        ]);
        expect(slots[0]).toBe(zonedInstant(BERLIN, day, '09:00').toISOString().replace('.000', ''));
      }
    }
  });

  it('shows Berlin 09:00 to a New York visitor as 03:00, or 04:00 in the weeks the zones change apart', async () => {
    const owner = await newOwner();
    const { slug } = await createBookingForm(pool, owner, { weekly: EVERY_DAY_NINE_TO_FIVE });
    const nySpring = newYork.find((c) => c.gain > 0)!.date;
    const berlinSpring = berlin.find((c) => c.gain > 0)!.date;
    const nyFall = newYork.find((c) => c.gain < 0)!.date;
    const berlinFall = berlin.find((c) => c.gain < 0)!.date;
    const firstInNewYork = async (date: string) =>
      clock(NEW_YORK)((await slotsOfLocalDay(slug, BERLIN, date))[0]!);
    // US clocks move three weeks before Europe's in spring and one week after them in autumn.
    expect(await firstInNewYork(dayBefore(nySpring))).toBe('03:00');
    expect(await firstInNewYork(nySpring)).toBe('04:00');
    expect(await firstInNewYork(berlinSpring)).toBe('03:00');
    expect(await firstInNewYork(berlinFall)).toBe('04:00');
    expect(await firstInNewYork(nyFall)).toBe('03:00');
  });

  it('skips a local hour that does not exist and offers a repeated one twice', async () => {
    const owner = await newOwner();
    const spring = berlin.find((c) => c.gain > 0)!.date;
    const fall = berlin.find((c) => c.gain < 0)!.date;
    const { slug } = await createBookingForm(pool, owner, {
      weekly: Array.from({ length: 7 }, () => []),
      // 01:00–04:00 local on both change days (overrides replace the weekday's ranges).
      overrides: [
        { date: spring, ranges: [[60, 240]] },
        { date: fall, ranges: [[60, 240]] },
      ],
    });
    const springSlots = await slotsOfLocalDay(slug, BERLIN, spring);
    // 02:00–03:00 does not exist: 01:00 CET, then 03:00 CEST, one real hour later.
    expect(springSlots.map(clock(BERLIN))).toEqual(['01:00', '03:00']);
    expect(Date.parse(springSlots[1]!) - Date.parse(springSlots[0]!)).toBe(HOUR);
    const fallSlots = await slotsOfLocalDay(slug, BERLIN, fall);
    // 02:00–03:00 happens twice: four real hours between 01:00 CEST and 04:00 CET.
    expect(fallSlots.map(clock(BERLIN))).toEqual(['01:00', '02:00', '02:00', '03:00']);
    expect(new Set(fallSlots).size).toBe(4);
    expect(Date.parse(fallSlots[3]!) - Date.parse(fallSlots[0]!)).toBe(3 * HOUR);
  });

  it('books a slot on a change day at the instant offered', async () => {
    const owner = await newOwner();
    const fall = berlin.find((c) => c.gain < 0)!.date;
    const { slug } = await createBookingForm(pool, owner, {
      weekly: Array.from({ length: 7 }, () => []),
      overrides: [{ date: fall, ranges: [[60, 240]] }],
    });
    const [, secondTwo] = (await slotsOfLocalDay(slug, BERLIN, fall)).filter(
      (s) => clock(BERLIN)(s) === '02:00',
    );
    const answer = await requestBooking(pool, slug, secondTwo!);
    expect(answer.status).toBe('booked');
    expect(answer.booking!.starts_at).toBe(secondTwo);
    expect(Date.parse(answer.booking!.ends_at) - Date.parse(secondTwo!)).toBe(HOUR);
    expect((await slotsOfLocalDay(slug, BERLIN, fall)).map(clock(BERLIN))).toEqual([
      '01:00',
      '02:00',
      '03:00',
    ]);
  });
});

describe('invitations across daylight-saving changes', () => {
  it("carries the booked instants in both copies' .ics on every change day, read by ical.js", async () => {
    const owner = await newOwner();
    const { slug } = await createBookingForm(pool, owner, { weekly: EVERY_DAY_NINE_TO_FIVE });
    const changes = [...dstChangeDates(BERLIN), ...dstChangeDates(NEW_YORK)];
    for (const { date } of changes) {
      // 16:00 Berlin time: after 13:00, where some tools offer a change day's times an hour late.
      const start = zonedInstant(BERLIN, date, '16:00').toISOString().replace('.000', '');
      const answer = await requestBooking(pool, slug, start, {
        email: `dst-${date}@example.test`,
        zone: NEW_YORK,
      });
      expect(answer.status, date).toBe('booked');
      const { rows } = await pool.query<{ calendar: string; text_body: string; kind: string }>(
        `select calendar, text_body, kind from public.email_deliveries
          where user_id = $1 and kind in ('booking_confirmation', 'booking_notice')
            and calendar like '%' || $2 || '%'`,
        [owner, answer.booking!.id],
      );
      expect(rows.map((r) => r.kind).sort(), date).toEqual([
        'booking_confirmation',
        'booking_notice',
      ]);
      for (const row of rows) {
        const root = new ICAL.Component(ICAL.parse(row.calendar));
        const event = new ICAL.Event(root.getFirstSubcomponent('vevent')!);
        expect(root.getFirstPropertyValue('method')).toBe('REQUEST');
        expect(event.uid).toBe(`${answer.booking!.id}@tinyback.tools`);
        expect(event.startDate.toJSDate().toISOString().replace('.000', ''), date).toBe(start);
        expect(event.endDate.toJSDate().getTime() - Date.parse(start)).toBe(HOUR);
      }
      // The visitor's words name both zones: 16:00 in Berlin, and what that is in New York.
      const visitorCopy = rows.find((r) => r.kind === 'booking_confirmation')!.text_body;
      expect(visitorCopy).toContain('16:00–17:00 (Europe/Berlin)');
      expect(visitorCopy).toContain(`${clock(NEW_YORK)(start)}–`);
      expect(visitorCopy).toContain('(America/New_York)');
    }
  });
});

describe('slot rules', () => {
  /** A local date in Berlin `days` from now, and the ISO instant of a Berlin wall time on it. */
  const dayAhead = (days: number) =>
    new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const at = (day: string, time: string) =>
    zonedInstant(BERLIN, day, time).toISOString().replace('.000', '');

  it("keeps buffers around a booking, across the owner's booking forms", async () => {
    const owner = await newOwner();
    const a = await createBookingForm(pool, owner, {
      duration_minutes: 60,
      buffer_after_minutes: 15,
    });
    const b = await createBookingForm(pool, owner, { duration_minutes: 30 });
    const day = dayAhead(10);
    expect((await requestBooking(pool, a.slug, at(day, '10:00'))).status).toBe('booked');
    // 10:00 is taken; 11:00 would start inside its 15-minute buffer, and 09:00's own buffer would
    // run into it.
    expect((await slotsOfLocalDay(a.slug, BERLIN, day)).map(clock(BERLIN))).toEqual([
      '12:00',
      '13:00',
      '14:00',
      '15:00',
      '16:00',
    ]);
    // The other form of the same owner: 10:00–11:15 is blocked for it too.
    expect((await slotsOfLocalDay(b.slug, BERLIN, day)).map(clock(BERLIN)).slice(0, 3)).toEqual([
      '09:00',
      '09:30',
      '11:30',
    ]);
  });

  it('honours minimum notice, the horizon, a day off, extra hours and the daily maximum', async () => {
    const owner = await newOwner();
    const off = dayAhead(5);
    const extra = dayAhead(6);
    const form = await createBookingForm(pool, owner, {
      min_notice_minutes: 3 * 24 * 60,
      max_days_ahead: 20,
      daily_max: 2,
      overrides: [
        { date: off, ranges: [] },
        { date: extra, ranges: [[1080, 1200]] },
      ],
    });
    expect(await slotsOfLocalDay(form.slug, BERLIN, dayAhead(1))).toEqual([]);
    expect(await slotsOfLocalDay(form.slug, BERLIN, dayAhead(25))).toEqual([]);
    expect(await slotsOfLocalDay(form.slug, BERLIN, off)).toEqual([]);
    expect((await slotsOfLocalDay(form.slug, BERLIN, extra)).map(clock(BERLIN))).toEqual([
      '18:00',
      '19:00',
    ]);
    const day = dayAhead(8);
    expect((await requestBooking(pool, form.slug, at(day, '09:00'))).status).toBe('booked');
    expect((await slotsOfLocalDay(form.slug, BERLIN, day)).length).toBe(7);
    expect((await requestBooking(pool, form.slug, at(day, '13:00'))).status).toBe('booked');
    expect(await slotsOfLocalDay(form.slug, BERLIN, day)).toEqual([]);
    const third = await requestBooking(pool, form.slug, at(day, '15:00'));
    expect(third.status).toBe('slot_taken');
    expect(third.next!.length).toBeGreaterThan(0);
    expect(
      third.next!.every(
        (s) => new Intl.DateTimeFormat('en-CA', { timeZone: BERLIN }).format(new Date(s)) !== day,
      ),
    ).toBe(true);
  });

  it('refuses a time that is not a slot, and frees a slot when its booking is cancelled', async () => {
    const owner = await newOwner();
    const form = await createBookingForm(pool, owner);
    const day = dayAhead(9);
    expect((await requestBooking(pool, form.slug, at(day, '09:10'))).status).toBe('slot_taken');
    expect((await requestBooking(pool, form.slug, at(day, '20:00'))).status).toBe('slot_taken');
    const booked = await requestBooking(pool, form.slug, at(day, '11:00'));
    expect(booked.status).toBe('booked');
    expect((await requestBooking(pool, form.slug, at(day, '11:00'))).status).toBe('slot_taken');
    await pool.query(
      `update public.bookings set status = 'cancelled', cancelled_at = now(), cancelled_by = 'owner' where id = $1`,
      [booked.booking!.id],
    );
    expect((await requestBooking(pool, form.slug, at(day, '11:00'))).status).toBe('booked');
  });

  it('caps the range one call may ask for and answers null for an unknown link', async () => {
    const owner = await newOwner();
    const form = await createBookingForm(pool, owner);
    const from = new Date();
    await expect(
      freeSlots(pool, form.slug, from, new Date(from.getTime() + 63 * 86_400_000)),
    ).rejects.toMatchObject({ code: '22023' });
    const { rows } = await pool.query(
      "select public.booking_slots($1, now(), now() + interval '1 day') as a",
      ['no-such-link'],
    );
    expect(rows[0].a).toBeNull();
  });
});

describe('the read budget of booking_slots()', () => {
  it('answers 600 reads of a form a minute, then 429 until the next minute; another form has its own', async () => {
    const owner = await newOwner();
    const busy = await createBookingForm(pool, owner);
    const other = await createBookingForm(pool, owner);
    const from = new Date();
    const to = new Date(from.getTime() + 86_400_000);
    // The minute's count as 599 reads have left it, then two more reads as anon through supabase-js.
    await pool.query(
      `insert into private.booking_slot_reads (booking_form_id, minute, hits)
       values ($1, date_trunc('minute', now()), 599)`,
      [busy.id],
    );
    const anon = newClient();
    const read = (slug: string) =>
      anon.rpc('booking_slots', {
        p_slug: slug,
        p_from: from.toISOString(),
        p_to: to.toISOString(),
      });
    const last = await read(busy.slug);
    const over = await read(busy.slug);
    // The two reads may straddle a minute's turn; then the second starts a new minute.
    const turned =
      (
        await pool.query<{ hits: number }>(
          'select hits from private.booking_slot_reads where booking_form_id = $1',
          [busy.id],
        )
      ).rows[0]!.hits === 1;
    expect(last.error).toBeNull();
    if (!turned) {
      expect(over.status).toBe(429);
      expect(over.error).toMatchObject({
        code: 'PT429',
        message: 'This booking page is busy. Try again in a minute.',
      });
    }
    expect((await read(other.slug)).error).toBeNull();
  });
});

describe('no double booking', () => {
  const at = (days: number, time: string) =>
    zonedInstant(BERLIN, new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10), time)
      .toISOString()
      .replace('.000', '');

  it('the exclusion constraint refuses an overlapping confirmed booking of the same owner (23P01)', async () => {
    const owner = await newOwner();
    const other = await newOwner();
    const a = await createBookingForm(pool, owner);
    const b = await createBookingForm(pool, owner);
    const c = await createBookingForm(pool, other);
    const insert = (
      formId: string,
      userId: string,
      from: string,
      to: string,
      status = 'confirmed',
    ) =>
      pool.query(
        `insert into public.bookings (booking_form_id, user_id, starts_at, ends_at, blocked, name, email,
            visitor_time_zone, status, cancelled_at, cancelled_by)
         values ($1, $2, $3, $4, tstzrange($3, $4, '[)'), 'V', 'v@example.test', 'UTC', $5,
                 case when $5 = 'cancelled' then now() end, case when $5 = 'cancelled' then 'owner' end)`,
        [formId, userId, from, to, status],
      );
    await insert(a.id, owner, at(12, '10:00'), at(12, '11:00'));
    await expect(insert(b.id, owner, at(12, '10:30'), at(12, '11:30'))).rejects.toMatchObject({
      code: '23P01',
    });
    // Touching is not overlapping; another owner and a cancelled booking do not conflict.
    await insert(b.id, owner, at(12, '11:00'), at(12, '12:00'));
    await insert(c.id, other, at(12, '10:30'), at(12, '11:30'));
    await insert(a.id, owner, at(12, '10:15'), at(12, '10:45'), 'cancelled');
  });

  it('50 concurrent requests for one slot: exactly one booking, 49 slot_taken', async () => {
    const owner = await newOwner();
    const form = await createBookingForm(pool, owner);
    const slot = at(14, '10:00');
    const racers = new pg.Pool({ connectionString: stack.dbUrl, max: 50 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          requestBooking(racers, form.slug, slot, {
            email: `racer${i}@example.test`,
            client: `c${i}`,
          }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 'booked')).toHaveLength(1);
      expect(statuses.filter((s) => s === 'slot_taken')).toHaveLength(49);
      expect(
        answers.filter((a) => a.status === 'slot_taken').every((a) => !a.next!.includes(slot)),
      ).toBe(true);
    } finally {
      await racers.end();
    }
    const { rows } = await pool.query<{ n: number; tokens: number; mails: number }>(
      `select count(*)::int as n,
              (select count(*)::int from private.booking_tokens t join public.bookings b on b.id = t.booking_id where b.user_id = $1) as tokens,
              (select count(*)::int from public.email_deliveries d where d.user_id = $1 and d.kind in ('booking_confirmation', 'booking_notice')) as mails
         from public.bookings where user_id = $1`,
      [owner],
    );
    expect(rows[0]).toEqual({ n: 1, tokens: 1, mails: 2 });
  });

  it('50 concurrent requests for overlapping slots of two booking forms of one owner: exactly one booking', async () => {
    const owner = await newOwner();
    const hour = await createBookingForm(pool, owner, { duration_minutes: 60 });
    const half = await createBookingForm(pool, owner, { duration_minutes: 30 });
    const racers = new pg.Pool({ connectionString: stack.dbUrl, max: 50 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          i % 2 === 0
            ? requestBooking(racers, hour.slug, at(15, '10:00'), { client: `h${i}` })
            : requestBooking(racers, half.slug, at(15, '10:30'), { client: `m${i}` }),
        ),
      );
      expect(answers.filter((a) => a.status === 'booked')).toHaveLength(1);
      expect(answers.filter((a) => a.status === 'slot_taken')).toHaveLength(49);
    } finally {
      await racers.end();
    }
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from public.bookings where user_id = $1 and status = 'confirmed'`,
      [owner],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
