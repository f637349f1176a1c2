// Test data of the visitor's booking pages: a booking form as booking_page() answers it, the
// free slots booking_slots() serves, and the browser's zone and clock the tests fix.
import { vi } from 'vitest';
import { supabaseDb } from '../../../../components/testing/supabase-server';
import type { BookedBooking, ManagedBooking, PublicBookingForm } from '../booking-types';

export const FORM: PublicBookingForm = {
  id: '10000000-0000-4000-8000-000000000001',
  slug: 'intro-call',
  name: 'Intro call',
  description: 'A first talk about your project.',
  location: 'https://meet.example.com/ada',
  duration_minutes: 30,
  time_zone: 'America/New_York',
  ask_note: true,
  max_days_ahead: 60,
  min_notice_minutes: 240,
  captcha_provider: null,
  captcha_site_key: null,
};

/** Free slots: two on Monday 30 November (9:00 and 9:30 in Berlin) and one in December. */
const SLOTS = ['2026-11-30T08:00:00Z', '2026-11-30T08:30:00Z', '2026-12-02T15:00:00Z'];

/** The booking the function answers for the first slot. */
export const BOOKED: BookedBooking = {
  id: '20000000-0000-4000-8000-000000000001',
  starts_at: '2026-11-30T08:00:00Z',
  ends_at: '2026-11-30T08:30:00Z',
  name: 'Grace',
  time_zone: 'America/New_York',
  visitor_time_zone: 'Europe/Berlin',
  booking_form_name: 'Intro call',
  location: 'https://meet.example.com/ada',
};

export const MANAGED: ManagedBooking = {
  ...BOOKED,
  slug: 'intro-call',
  duration_minutes: 30,
  status: 'confirmed',
};

/** 32 random bytes, base64url, as the database draws manage tokens. */
export const TOKEN = 'Tk_-'.repeat(10) + 'abc';

/** Serves booking_page() and booking_slots() from the fixtures. */
export function serveBookingForm(form: PublicBookingForm | null = FORM, slots = SLOTS) {
  supabaseDb.rpc('booking_page', (args) => (form && args.p_slug === form.slug ? form : null));
  supabaseDb.rpc('booking_slots', (args) => {
    if (!form || args.p_slug !== form.slug) return null;
    const from = Date.parse(String(args.p_from));
    const to = Date.parse(String(args.p_to));
    return {
      slots: slots.filter((s) => Date.parse(s) >= from && Date.parse(s) < to),
      duration_minutes: form.duration_minutes,
    };
  });
}

/** The browser's clock at `now` and its zone `zone` (only Date is faked: timers run). */
export function fixBrowser(now = '2026-11-28T10:00:00Z', zone = 'Europe/Berlin') {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
  const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
    this: Intl.DateTimeFormat,
  ) {
    const options = resolved.call(this);
    return options.timeZone === 'UTC' || !this ? { ...options, timeZone: zone } : options;
  });
}

export function restoreBrowser() {
  vi.useRealTimers();
  vi.restoreAllMocks();
}
