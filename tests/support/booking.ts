// Booking forms and dates for the booking suites: a form made as its owner would save it, the
// next daylight-saving changes of a zone (found with Intl, so the suites hold whatever today is),
// and one booking_request() as the booking function sends it.
import type pg from 'pg';
import { commitAsService } from './db.ts';

export interface BookingFormFields {
  slug?: string;
  name?: string;
  time_zone?: string;
  duration_minutes?: number;
  weekly?: number[][][];
  overrides?: { date: string; ranges: number[][] }[];
  buffer_before_minutes?: number;
  buffer_after_minutes?: number;
  min_notice_minutes?: number;
  max_days_ahead?: number;
  daily_max?: number | null;
  location?: string;
  description?: string;
}

/** Every day of the week, 09:00–17:00. */
export const EVERY_DAY_NINE_TO_FIVE = Array.from({ length: 7 }, () => [[540, 1020]]);

let serial = 0;

/** Creates a booking form of `userId` (committed, as the superuser); its id and slug. */
export async function createBookingForm(
  pool: pg.Pool,
  userId: string,
  fields: BookingFormFields = {},
): Promise<{ id: string; slug: string }> {
  serial += 1;
  const slug =
    fields.slug ?? `t-${process.pid}-${serial}-${Math.random().toString(36).slice(2, 8)}`;
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.booking_forms
       (user_id, slug, name, time_zone, duration_minutes, weekly, overrides, buffer_before_minutes,
        buffer_after_minutes, min_notice_minutes, max_days_ahead, daily_max, location, description)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning id`,
    [
      userId,
      slug,
      fields.name ?? 'Intro call',
      fields.time_zone ?? 'Europe/Berlin',
      fields.duration_minutes ?? 60,
      JSON.stringify(fields.weekly ?? EVERY_DAY_NINE_TO_FIVE),
      JSON.stringify(fields.overrides ?? []),
      fields.buffer_before_minutes ?? 0,
      fields.buffer_after_minutes ?? 0,
      fields.min_notice_minutes ?? 0,
      fields.max_days_ahead ?? 365,
      fields.daily_max ?? null,
      fields.location ?? 'Video call',
      fields.description ?? '',
    ],
  );
  return { id: rows[0]!.id, slug };
}

/** The UTC offset of `zone` at `instant`, in minutes (Berlin in summer: 120). */
function offsetMinutes(zone: string, instant: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((local - instant.getTime()) / 60_000);
}

/**
 * The local dates (YYYY-MM-DD) on which `zone`'s offset changes, within the next `days` days from
 * two days after now: spring-forward first where the offset grows.
 */
export function dstChangeDates(zone: string, days = 364): { date: string; gain: number }[] {
  const changes: { date: string; gain: number }[] = [];
  const start = Date.UTC(
    new Date().getUTCFullYear(),
    new Date().getUTCMonth(),
    new Date().getUTCDate() + 2,
  );
  for (let d = 0; d < days; d += 1) {
    const noon = new Date(start + d * 86_400_000 + 12 * 3_600_000);
    const before = offsetMinutes(zone, new Date(noon.getTime() - 24 * 3_600_000));
    const after = offsetMinutes(zone, noon);
    if (before !== after) {
      changes.push({ date: noon.toISOString().slice(0, 10), gain: after - before });
    }
  }
  return changes;
}

/** The instant of local wall time `date` `time` in `zone` (the later reading when it repeats). */
export function zonedInstant(zone: string, date: string, time: string): Date {
  const naive = Date.parse(`${date}T${time}:00Z`);
  let guess = naive - offsetMinutes(zone, new Date(naive)) * 60_000;
  guess = naive - offsetMinutes(zone, new Date(guess)) * 60_000;
  return new Date(guess);
}

export interface BookingAnswer {
  status: string;
  booking?: { id: string; starts_at: string; ends_at: string };
  next?: string[];
  visitor_mailed?: boolean;
  retry_after?: number;
  field?: string;
}

/** One booking_request() as the booking function sends it (committed). */
export async function requestBooking(
  pool: pg.Pool,
  slug: string,
  start: string,
  visitor: { name?: string; email?: string; note?: string; zone?: string; client?: string } = {},
): Promise<BookingAnswer> {
  const [row] = await commitAsService<{ answer: BookingAnswer }>(
    pool,
    `select public.booking_request($1, $2, $3, $4, $5, $6, $7, 'https://site.test/book/manage?token=',
              '{"per_client_minute": 1000, "per_client_day": 1000, "per_account_day": 1000, "per_recipient_day": 1000}') as answer`,
    [
      slug,
      start,
      visitor.name ?? 'Visitor',
      visitor.email ?? 'visitor@example.test',
      visitor.note ?? '',
      visitor.zone ?? 'America/New_York',
      visitor.client ?? 'client-a',
    ],
  );
  return row!.answer;
}

/** The free slot starts of `slug` in [from, to). */
export async function freeSlots(
  pool: pg.Pool,
  slug: string,
  from: Date,
  to: Date,
): Promise<string[]> {
  const { rows } = await pool.query<{ answer: { slots: string[] } }>(
    'select public.booking_slots($1, $2, $3) as answer',
    [slug, from.toISOString(), to.toISOString()],
  );
  return rows[0]!.answer.slots;
}
