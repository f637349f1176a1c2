// The shapes the booking page reads: booking_page(), booking_slots() and the `booking` function's
// answers (see the booking contract). jsonb answers are checked here before the page trusts them.

export type CaptchaProviderName = 'turnstile' | 'hcaptcha' | 'recaptcha';

/** booking_page(p_slug): what a visitor sees of a booking form. */
export interface PublicBookingForm {
  id: string;
  slug: string;
  name: string;
  description: string;
  location: string;
  duration_minutes: number;
  /** The owner's zone. */
  time_zone: string;
  ask_note: boolean;
  max_days_ahead: number;
  min_notice_minutes: number;
  captcha_provider: CaptchaProviderName | null;
  captcha_site_key: string | null;
}

/** A booking as the function answers it after booking or rescheduling. */
export interface BookedBooking {
  id: string;
  starts_at: string;
  ends_at: string;
  name: string;
  /** The owner's zone. */
  time_zone: string;
  visitor_time_zone: string;
  booking_form_name: string;
  location: string;
}

/** A booking as its manage link shows it (booking_manage). */
export interface ManagedBooking {
  id: string;
  slug: string;
  booking_form_name: string;
  location: string;
  duration_minutes: number;
  time_zone: string;
  visitor_time_zone: string;
  starts_at: string;
  ends_at: string;
  name: string;
  status: 'confirmed' | 'cancelled';
}

/** The slug's rule (booking_forms.slug): anything else cannot name a booking form. */
const SLUG = /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/;

export function isSlug(text: string | undefined): text is string {
  return !!text && SLUG.test(text);
}

/** A manage token as the database draws them (random, base64url); anything else is no token. */
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

export function isManageToken(text: string | null | undefined): text is string {
  return !!text && TOKEN.test(text);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const isInstant = (value: unknown): value is string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value));

export function isBookedBooking(value: unknown): value is BookedBooking {
  return (
    isRecord(value) &&
    isInstant(value.starts_at) &&
    isInstant(value.ends_at) &&
    typeof value.time_zone === 'string' &&
    typeof value.visitor_time_zone === 'string'
  );
}

export function isManagedBooking(value: unknown): value is ManagedBooking {
  return (
    isBookedBooking(value) && typeof (value as unknown as Record<string, unknown>).slug === 'string'
  );
}

export function isPublicBookingForm(value: unknown): value is PublicBookingForm {
  return (
    isRecord(value) &&
    typeof value.slug === 'string' &&
    typeof value.name === 'string' &&
    typeof value.time_zone === 'string' &&
    typeof value.duration_minutes === 'number'
  );
}
