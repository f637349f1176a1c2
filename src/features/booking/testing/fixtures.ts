// Test data for the owner's booking pages, and their tables and function in the tests' database
// (src/components/testing/supabase-server.ts): booking_forms with the database's defaults, bookings,
// and booking_owner_cancel acting on the stored rows as the database does.
import { supabaseDb, type Row } from '../../../components/testing/supabase-server';
import type { Tables } from '../../../lib/database';
import { DEFAULT_WEEKLY } from '../availability';

export const OWNER_ID = '00000000-0000-4000-8000-000000000001';
let sequence = 0;
const uuid = (prefix: string, n: number) =>
  `00000000-0000-4000-${prefix}-${String(n).padStart(12, '0')}`;

type BookingFormRow = Tables<'booking_forms'>;
type BookingRow = Omit<Tables<'bookings'>, 'blocked'>;

export function makeBookingForm(overrides: Partial<BookingFormRow> = {}): BookingFormRow {
  sequence += 1;
  const created = new Date(Date.UTC(2026, 10, 1, 10, sequence)).toISOString();
  return {
    id: uuid('c000', sequence),
    user_id: OWNER_ID,
    slug: `form-${sequence}`,
    name: `Form ${sequence}`,
    description: '',
    location: '',
    duration_minutes: 30,
    time_zone: 'UTC',
    weekly: DEFAULT_WEEKLY,
    overrides: [],
    buffer_before_minutes: 0,
    buffer_after_minutes: 0,
    min_notice_minutes: 240,
    max_days_ahead: 60,
    daily_max: null,
    ask_note: true,
    captcha_provider: null,
    captcha_site_key: null,
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}

/** A timestamp this many hours from now (negative: ago), on the minute. */
export function hoursFromNow(hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  at.setUTCSeconds(0, 0);
  return at.toISOString();
}

/** A confirmed 30-minute booking of a form, starting `hours` from now (a day ahead unless told). */
export function makeBooking(
  form: Pick<BookingFormRow, 'id'>,
  { hours = 24, ...overrides }: Partial<BookingRow> & { hours?: number } = {},
): BookingRow {
  sequence += 1;
  const starts = overrides.starts_at ?? hoursFromNow(hours);
  const ends = new Date(Date.parse(starts) + 30 * 60_000).toISOString();
  return {
    id: uuid('d000', sequence),
    booking_form_id: form.id,
    user_id: OWNER_ID,
    starts_at: starts,
    ends_at: ends,
    name: `Visitor ${sequence}`,
    email: `visitor${sequence}@example.com`,
    note: '',
    visitor_time_zone: 'Europe/Berlin',
    status: 'confirmed',
    cancelled_at: null,
    cancelled_by: null,
    cancel_reason: null,
    sequence: 0,
    created_at: hoursFromNow(-48),
    updated_at: hoursFromNow(-48),
    ...overrides,
  };
}

/** Seeds the owner's booking forms and bookings, and booking_owner_cancel over them. */
export function seedBooking({
  forms = [],
  bookings = [],
}: { forms?: BookingFormRow[]; bookings?: BookingRow[] } = {}) {
  supabaseDb.define('booking_forms', {
    insert: (row) => ({ ...makeBookingForm(), ...row }),
    update: (before, values) => ({ ...before, ...values, updated_at: new Date().toISOString() }),
  });
  supabaseDb.define('bookings', {});
  supabaseDb.seed({ booking_forms: forms, bookings });
  supabaseDb.rpc('booking_owner_cancel', (args: Row) => {
    const rows = supabaseDb.rows('bookings');
    const index = rows.findIndex((row) => row.id === args.p_booking_id);
    if (index === -1) return { status: 'not_found' };
    if (rows[index].status === 'cancelled') return { status: 'already_cancelled' };
    const message = String(args.p_message ?? '').trim();
    rows[index] = {
      ...rows[index],
      status: 'cancelled',
      cancelled_by: 'owner',
      cancelled_at: new Date().toISOString(),
      cancel_reason: message || null,
    };
    return { status: 'cancelled' };
  });
}
