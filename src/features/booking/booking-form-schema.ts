// A booking form as the owner edits it: the fields, their checks and the row they become. The
// limits are the database's (public.booking_forms' checks in supabase/schemas/18-booking.sql), so
// what passes here is stored; the database checks it all again.
import * as yup from 'yup';
import type { Tables } from '../../lib/database';
import {
  DEFAULT_WEEKLY,
  isIsoDate,
  rangeProblems,
  toOverrideValues,
  toRangeValues,
  toStoredOverrides,
  toStoredRanges,
  type OverrideValues,
  type RangeValues,
} from './availability';

export const BOOKING_LIMITS = {
  nameMax: 100,
  slugMin: 3,
  slugMax: 60,
  descriptionMax: 1000,
  locationMax: 300,
  duration: { min: 5, max: 480, default: 30 },
  buffer: { min: 0, max: 240 },
  minNotice: { min: 0, max: 43_200, default: 240 },
  maxDaysAhead: { min: 1, max: 365, default: 60 },
  dailyMax: { min: 1, max: 100 },
  rangesPerDay: 6,
  overrides: 200,
} as const;

/** Addresses under /book/ that are pages of their own. */
const RESERVED_SLUGS: readonly string[] = ['manage', 'new'];
const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/;

export type BookingFormRow = Tables<'booking_forms'>;

/** What the editor writes: every column the owner sets (the CAPTCHA has an RPC of its own). */
export type BookingFormInput = Omit<
  BookingFormRow,
  'id' | 'user_id' | 'captcha_provider' | 'captcha_site_key' | 'created_at' | 'updated_at'
>;

/** A number field as Formik holds it: a number, or '' while empty. */
type NumberValue = number | '';

export interface BookingFormValues {
  name: string;
  slug: string;
  description: string;
  location: string;
  duration_minutes: NumberValue;
  time_zone: string;
  /** Seven days, Monday first. */
  weekly: RangeValues[][];
  overrides: OverrideValues[];
  buffer_before_minutes: NumberValue;
  buffer_after_minutes: NumberValue;
  min_notice_minutes: NumberValue;
  max_days_ahead: NumberValue;
  /** Empty: no daily maximum. */
  daily_max: NumberValue;
  ask_note: boolean;
}

/**
 * A link proposed from a name: lower-case letters, digits and dashes ("Intro call" → intro-call),
 * accents dropped, at most 60 characters; a name too short or reserved gets "-booking" after it.
 */
export function proposeSlug(name: string): string {
  let slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, BOOKING_LIMITS.slugMax)
    .replace(/-+$/, '');
  if (!slug) return '';
  if (slug.length < BOOKING_LIMITS.slugMin || RESERVED_SLUGS.includes(slug)) slug += '-booking';
  return slug;
}

/** The browser's IANA time zone; UTC when it cannot tell. */
function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Whether this engine knows the zone (Postgres knows at least as many). */
function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zones to choose from, sorted, with UTC and `current` among them. */
export function timeZoneOptions(current?: string): string[] {
  const zones = new Set<string>(
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [],
  );
  zones.add('UTC');
  zones.add(browserTimeZone());
  if (current) zones.add(current);
  return [...zones].sort();
}

export function newFormValues(timeZone = browserTimeZone()): BookingFormValues {
  return {
    name: '',
    slug: '',
    description: '',
    location: '',
    duration_minutes: BOOKING_LIMITS.duration.default,
    time_zone: timeZone,
    weekly: DEFAULT_WEEKLY.map((day) => day.map(toRangeValues)),
    overrides: [],
    buffer_before_minutes: 0,
    buffer_after_minutes: 0,
    min_notice_minutes: BOOKING_LIMITS.minNotice.default,
    max_days_ahead: BOOKING_LIMITS.maxDaysAhead.default,
    daily_max: '',
    ask_note: true,
  };
}

export function formValues(row: BookingFormRow): BookingFormValues {
  return {
    name: row.name,
    slug: row.slug,
    description: row.description,
    location: row.location,
    duration_minutes: row.duration_minutes,
    time_zone: row.time_zone,
    weekly: Array.from({ length: 7 }, (_, day) => (row.weekly[day] ?? []).map(toRangeValues)),
    overrides: row.overrides.map(toOverrideValues),
    buffer_before_minutes: row.buffer_before_minutes,
    buffer_after_minutes: row.buffer_after_minutes,
    min_notice_minutes: row.min_notice_minutes,
    max_days_ahead: row.max_days_ahead,
    daily_max: row.daily_max ?? '',
    ask_note: row.ask_note,
  };
}

/** A whole number of minutes (or days, or bookings) between `min` and `max`. */
function wholeNumber(label: string, { min, max }: { min: number; max: number }, unit: string) {
  const message = `${label} must be a whole number from ${min} to ${max}${unit}.`;
  return yup
    .number()
    .transform((value: unknown, original: unknown) => (original === '' ? undefined : value))
    .typeError(message)
    .required(`Enter ${label.toLowerCase()}.`)
    .integer(message)
    .min(min, message)
    .max(max, message);
}

/** The index of the array item a path ends with (`weekly[2][1]` → 1). */
const itemIndex = (path: string) => Number(/\[(\d+)\]$/.exec(path)?.[1] ?? -1);

/** One range of a day: both times valid, the start first, no overlap with the day's others. */
const rangeSchema = yup
  // Formik hands an emptied field over as undefined: it is checked as empty text.
  .object({ start: yup.string().ensure(), end: yup.string().ensure() })
  .test('range', function (range) {
    const index = itemIndex(this.path);
    // Formik hands emptied fields over as undefined, the other ranges' too.
    const day = ((this.parent ?? []) as Partial<RangeValues>[]).map((other) => ({
      start: other.start ?? '',
      end: other.end ?? '',
    }));
    const problems = rangeProblems(
      range,
      day.filter((_, i) => i !== index),
    );
    const errors = Object.entries(problems).map(([field, message]) =>
      this.createError({ path: `${this.path}.${field}`, message }),
    );
    return errors.length ? new yup.ValidationError(errors) : true;
  });

const RANGES_MAX_MESSAGE = `A day has at most ${BOOKING_LIMITS.rangesPerDay} ranges.`;

const rangesSchema = yup
  .array(rangeSchema)
  .defined()
  .max(BOOKING_LIMITS.rangesPerDay, RANGES_MAX_MESSAGE);

/** A date override: a real date no other override has, and ranges unless it is a day off. */
const overrideSchema = yup
  .object({
    date: yup
      .string()
      .defined()
      .required('Choose a date.')
      .test('date', 'Use a date like 2026-12-24.', (date) => isIsoDate(date ?? '')),
    dayOff: yup.boolean().defined(),
    // A day off keeps the ranges it had (switching back brings them back), unchecked.
    ranges: yup.array().when('dayOff', {
      is: true,
      then: () => yup.array().defined(),
      otherwise: () => rangesSchema.min(1, 'Add a time range, or make it a day off.'),
    }),
  })
  .test('unique-date', function (override) {
    const index = itemIndex(this.path);
    const list = (this.parent ?? []) as OverrideValues[];
    const taken = list.some((other, i) => i !== index && other.date === override.date);
    return taken && isIsoDate(override.date)
      ? this.createError({ path: `${this.path}.date`, message: 'This date has another override.' })
      : true;
  });

export const bookingFormSchema = yup.object({
  name: yup
    .string()
    .trim()
    .required('Enter a name, e.g. Intro call.')
    .max(BOOKING_LIMITS.nameMax, `The name must be at most ${BOOKING_LIMITS.nameMax} characters.`),
  slug: yup
    .string()
    .trim()
    .required('Enter the link’s last part, e.g. intro-call.')
    .min(BOOKING_LIMITS.slugMin, 'The link needs at least 3 characters.')
    .max(BOOKING_LIMITS.slugMax, `The link can have at most ${BOOKING_LIMITS.slugMax} characters.`)
    .matches(
      SLUG_PATTERN,
      'Use lower-case letters, digits and dashes, starting and ending with a letter or digit.',
    )
    .notOneOf([...RESERVED_SLUGS], 'This link is reserved. Choose another.'),
  description: yup
    .string()
    .max(
      BOOKING_LIMITS.descriptionMax,
      `The description must be at most ${BOOKING_LIMITS.descriptionMax} characters.`,
    ),
  location: yup
    .string()
    .trim()
    .max(
      BOOKING_LIMITS.locationMax,
      `The location must be at most ${BOOKING_LIMITS.locationMax} characters.`,
    ),
  duration_minutes: wholeNumber('The duration', BOOKING_LIMITS.duration, ' minutes'),
  time_zone: yup
    .string()
    .required('Choose a time zone.')
    .test('zone', 'Choose a time zone from the list.', (zone) => isTimeZone(zone ?? '')),
  weekly: yup.array(rangesSchema).defined().length(7),
  overrides: yup
    .array(overrideSchema)
    .defined()
    .max(BOOKING_LIMITS.overrides, `At most ${BOOKING_LIMITS.overrides} date overrides.`),
  buffer_before_minutes: wholeNumber('The buffer before', BOOKING_LIMITS.buffer, ' minutes'),
  buffer_after_minutes: wholeNumber('The buffer after', BOOKING_LIMITS.buffer, ' minutes'),
  min_notice_minutes: wholeNumber('The minimum notice', BOOKING_LIMITS.minNotice, ' minutes'),
  max_days_ahead: wholeNumber('How far ahead', BOOKING_LIMITS.maxDaysAhead, ' days'),
  daily_max: yup
    .number()
    .transform((value: unknown, original: unknown) => (original === '' ? undefined : value))
    .typeError('The daily maximum must be a whole number from 1 to 100, or empty.')
    .integer('The daily maximum must be a whole number from 1 to 100, or empty.')
    .min(
      BOOKING_LIMITS.dailyMax.min,
      'The daily maximum must be a whole number from 1 to 100, or empty.',
    )
    .max(
      BOOKING_LIMITS.dailyMax.max,
      'The daily maximum must be a whole number from 1 to 100, or empty.',
    )
    .optional(),
  ask_note: yup.boolean().defined(),
});

/** The row the values become: trimmed, times as minutes, ranges sorted, an empty maximum null. */
export function toBookingFormInput(values: BookingFormValues): BookingFormInput {
  return {
    name: values.name.trim(),
    slug: values.slug.trim(),
    description: values.description.trim(),
    location: values.location.trim(),
    duration_minutes: Number(values.duration_minutes),
    time_zone: values.time_zone,
    weekly: values.weekly.map(toStoredRanges),
    overrides: toStoredOverrides(values.overrides),
    buffer_before_minutes: Number(values.buffer_before_minutes),
    buffer_after_minutes: Number(values.buffer_after_minutes),
    min_notice_minutes: Number(values.min_notice_minutes),
    max_days_ahead: Number(values.max_days_ahead),
    daily_max: values.daily_max === '' ? null : Number(values.daily_max),
    ask_note: values.ask_note,
  };
}

/** How long a number of minutes is, in words: 240 → "4 hours", 90 → "1 hour 30 minutes". */
export function describeMinutes(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes >= 1440 && minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return plural(rest, 'minute');
  return rest ? `${plural(hours, 'hour')} ${plural(rest, 'minute')}` : plural(hours, 'hour');
}
