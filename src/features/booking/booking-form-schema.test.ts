import { describe, expect, it } from 'vitest';
import { ValidationError } from 'yup';
import {
  bookingFormSchema,
  describeMinutes,
  formValues,
  newFormValues,
  proposeSlug,
  timeZoneOptions,
  toBookingFormInput,
  type BookingFormValues,
} from './booking-form-schema';
import { makeBookingForm } from './testing/fixtures';

/** The errors of the values by path, as Formik shows them: the first of each path. */
function errorsOf(values: BookingFormValues): Record<string, string> {
  try {
    bookingFormSchema.validateSync(values, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: Record<string, string> = {};
    for (const inner of error.inner) errors[inner.path ?? ''] ??= inner.message;
    return errors;
  }
}

const valid = (): BookingFormValues => ({
  ...newFormValues('Europe/Berlin'),
  name: 'Intro call',
  slug: 'intro-call',
});

describe('bookingFormSchema', () => {
  it('accepts the defaults with a name and a link', () => {
    expect(errorsOf(valid())).toEqual({});
  });

  it('checks the weekly ranges: times, order within a range, overlaps', () => {
    const values = valid();
    values.weekly[0] = [
      { start: '09:00', end: '12:00' },
      { start: '11:00', end: '13:00' },
    ];
    values.weekly[1] = [{ start: '17:00', end: '09:00' }];
    values.weekly[2] = [{ start: '9h', end: '' }];
    values.weekly[3] = [
      { start: '13:00', end: '17:00' },
      { start: '09:00', end: '13:00' },
    ];
    expect(errorsOf(values)).toEqual({
      'weekly[0][0].start': 'Overlaps 11:00–13:00.',
      'weekly[0][1].start': 'Overlaps 09:00–12:00.',
      'weekly[1][0].end': 'The end must be after the start.',
      'weekly[2][0].start': 'Use HH:MM, e.g. 09:00.',
      'weekly[2][0].end': 'Enter an end time.',
    });
  });

  it('allows at most six ranges a day', () => {
    const values = valid();
    values.weekly[4] = Array.from({ length: 7 }, (_, i) => ({
      start: `${String(i * 2).padStart(2, '0')}:00`,
      end: `${String(i * 2 + 1).padStart(2, '0')}:00`,
    }));
    expect(errorsOf(values)).toEqual({ 'weekly[4]': 'A day has at most 6 ranges.' });
  });

  it('checks date overrides: a real date, once each, and hours unless a day off', () => {
    const values = valid();
    values.overrides = [
      { date: '2026-12-24', dayOff: true, ranges: [] },
      { date: '2026-12-24', dayOff: false, ranges: [{ start: '10:00', end: '12:00' }] },
      { date: '2026-02-30', dayOff: true, ranges: [] },
      { date: '', dayOff: true, ranges: [] },
      { date: '2026-12-31', dayOff: false, ranges: [] },
      {
        date: '2027-01-02',
        dayOff: false,
        ranges: [
          { start: '10:00', end: '12:00' },
          { start: '11:00', end: '12:30' },
        ],
      },
      // A day off keeps its old hours unchecked: they come back if it is switched back.
      { date: '2027-01-03', dayOff: true, ranges: [{ start: '12:00', end: '10:00' }] },
    ];
    expect(errorsOf(values)).toEqual({
      'overrides[0].date': 'This date has another override.',
      'overrides[1].date': 'This date has another override.',
      'overrides[2].date': 'Use a date like 2026-12-24.',
      'overrides[3].date': 'Choose a date.',
      'overrides[4].ranges': 'Add a time range, or make it a day off.',
      'overrides[5].ranges[0].start': 'Overlaps 11:00–12:30.',
      'overrides[5].ranges[1].start': 'Overlaps 10:00–12:00.',
    });
  });

  it('checks the link as the database does', () => {
    const slugError = (slug: string) => errorsOf({ ...valid(), slug }).slug;
    expect(slugError('intro-call')).toBeUndefined();
    expect(slugError('abc')).toBeUndefined();
    expect(slugError('ab')).toBe('The link needs at least 3 characters.');
    expect(slugError('a'.repeat(61))).toBe('The link can have at most 60 characters.');
    expect(slugError('Intro')).toMatch(/^Use lower-case letters/);
    expect(slugError('-intro')).toMatch(/^Use lower-case letters/);
    expect(slugError('intro-')).toMatch(/^Use lower-case letters/);
    expect(slugError('new')).toBe('This link is reserved. Choose another.');
    expect(slugError('manage')).toBe('This link is reserved. Choose another.');
    expect(slugError('')).toBe('Enter the link’s last part, e.g. intro-call.');
  });

  it('checks the numbers against the database limits', () => {
    const errors = errorsOf({
      ...valid(),
      name: '   ',
      duration_minutes: 4,
      buffer_before_minutes: 241,
      buffer_after_minutes: -1,
      min_notice_minutes: 43_201,
      max_days_ahead: 0,
      daily_max: 101,
      time_zone: 'Mars/Olympus',
    });
    expect(errors).toEqual({
      name: 'Enter a name, e.g. Intro call.',
      duration_minutes: 'The duration must be a whole number from 5 to 480 minutes.',
      buffer_before_minutes: 'The buffer before must be a whole number from 0 to 240 minutes.',
      buffer_after_minutes: 'The buffer after must be a whole number from 0 to 240 minutes.',
      min_notice_minutes: 'The minimum notice must be a whole number from 0 to 43200 minutes.',
      max_days_ahead: 'How far ahead must be a whole number from 1 to 365 days.',
      daily_max: 'The daily maximum must be a whole number from 1 to 100, or empty.',
      time_zone: 'Choose a time zone from the list.',
    });
    expect(errorsOf({ ...valid(), duration_minutes: 30.5 }).duration_minutes).toBe(
      'The duration must be a whole number from 5 to 480 minutes.',
    );
    expect(errorsOf({ ...valid(), daily_max: '' })).toEqual({});
    expect(errorsOf({ ...valid(), name: 'x'.repeat(101) }).name).toBe(
      'The name must be at most 100 characters.',
    );
  });
});

describe('toBookingFormInput and formValues', () => {
  it('turns the values into the row: trimmed, minutes, sorted, an empty maximum null', () => {
    const values = valid();
    values.name = '  Intro call ';
    values.weekly[0] = [
      { start: '13:00', end: '17:00' },
      { start: '9:00', end: '12:00' },
    ];
    values.overrides = [
      { date: '2026-12-31', dayOff: false, ranges: [{ start: '10:00', end: '24:00' }] },
      { date: '2026-12-24', dayOff: true, ranges: [] },
    ];
    expect(toBookingFormInput(values)).toEqual({
      name: 'Intro call',
      slug: 'intro-call',
      description: '',
      location: '',
      duration_minutes: 30,
      time_zone: 'Europe/Berlin',
      weekly: [
        [
          [540, 720],
          [780, 1020],
        ],
        [[540, 1020]],
        [[540, 1020]],
        [[540, 1020]],
        [[540, 1020]],
        [],
        [],
      ],
      overrides: [
        { date: '2026-12-24', ranges: [] },
        { date: '2026-12-31', ranges: [[600, 1440]] },
      ],
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      min_notice_minutes: 240,
      max_days_ahead: 60,
      daily_max: null,
      ask_note: true,
    });
  });

  it('reads a stored form back into the same values', () => {
    const row = makeBookingForm({
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
        [[600, 1440]],
      ],
      overrides: [{ date: '2026-12-24', ranges: [] }],
      daily_max: 4,
    });
    const values = formValues(row);
    expect(values.weekly[0]).toEqual([
      { start: '09:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ]);
    expect(values.weekly[6]).toEqual([{ start: '10:00', end: '24:00' }]);
    expect(values.overrides).toEqual([{ date: '2026-12-24', dayOff: true, ranges: [] }]);
    expect(values.daily_max).toBe(4);
    const input = toBookingFormInput(values);
    expect(input.weekly).toEqual(row.weekly);
    expect(input.overrides).toEqual(row.overrides);
  });
});

describe('proposeSlug', () => {
  it('makes a link of a name', () => {
    expect(proposeSlug('Intro call')).toBe('intro-call');
    expect(proposeSlug('  Café & Crème — 30 min! ')).toBe('cafe-creme-30-min');
    expect(proposeSlug('Über')).toBe('uber');
    expect(proposeSlug('A')).toBe('a-booking');
    expect(proposeSlug('New')).toBe('new-booking');
    expect(proposeSlug('!!!')).toBe('');
    const long = proposeSlug(`${'word '.repeat(20)}end`);
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('-')).toBe(false);
  });
});

describe('timeZoneOptions and describeMinutes', () => {
  it('lists zones sorted, with UTC and the current one', () => {
    const zones = timeZoneOptions('Europe/Berlin');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect([...zones].sort()).toEqual(zones);
  });

  it('says a number of minutes in words', () => {
    expect(describeMinutes(0)).toBe('0 minutes');
    expect(describeMinutes(1)).toBe('1 minute');
    expect(describeMinutes(90)).toBe('1 hour 30 minutes');
    expect(describeMinutes(240)).toBe('4 hours');
    expect(describeMinutes(2880)).toBe('2 days');
  });
});
