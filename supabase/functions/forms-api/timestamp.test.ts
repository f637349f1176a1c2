// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { EARLIEST_INSTANT, LATEST_INSTANT, isoInstant } from './timestamp.ts';

describe('isoInstant', () => {
  it('reads a date as midnight UTC and a date-time in its zone', () => {
    expect(isoInstant('2026-11-24')).toBe(Date.parse('2026-11-24T00:00:00Z'));
    expect(isoInstant('2026-11-24T09:30Z')).toBe(Date.parse('2026-11-24T09:30:00Z'));
    expect(isoInstant('2026-11-24T09:30:00.123456+02:00')).toBe(
      Date.parse('2026-11-24T07:30:00.123Z'),
    );
    expect(isoInstant('2026-11-24T09:30:00-0530')).toBe(Date.parse('2026-11-24T15:00:00Z'));
    expect(isoInstant('2026-11-24T09:30:00+00')).toBe(Date.parse('2026-11-24T09:30:00Z'));
  });

  it('keeps the years 0001 to 0099 as they are, not as 1901 to 1999', () => {
    expect(new Date(isoInstant('0042-03-04')!).toISOString()).toBe('0042-03-04T00:00:00.000Z');
  });

  it('serves the years 0001 to 9999 in UTC, to their first and last moment', () => {
    expect(isoInstant('0001-01-01')).toBe(EARLIEST_INSTANT);
    expect(isoInstant('9999-12-31T23:59:59.999999Z')).toBe(LATEST_INSTANT);
    expect(isoInstant('0000-12-31T23:59:59.999Z')).toBeNull();
    expect(isoInstant('0001-01-01T00:59:59.9999+01:00')).toBeNull();
    expect(isoInstant('9999-12-31T19:00:00-05:00')).toBeNull();
  });

  it('knows the leap years of the Gregorian calendar', () => {
    expect(isoInstant('2000-02-29')).not.toBeNull();
    expect(isoInstant('2024-02-29')).not.toBeNull();
    expect(isoInstant('1900-02-29')).toBeNull();
    expect(isoInstant('2025-02-29')).toBeNull();
  });

  it.each([
    '2026-00-10',
    '2026-13-10',
    '2026-04-31',
    '2026-01-00',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-01-01T23:59:60Z',
    '2026-01-01T00:00:00+16:00',
    '2026-01-01T00:00:00+01:60',
    '2026-01-01T09:30:00',
    '10000-01-01',
    '+010000-01-01T00:00:00Z',
    '2026-1-1',
    '',
  ])('refuses %j', (text) => expect(isoInstant(text)).toBeNull());
});
