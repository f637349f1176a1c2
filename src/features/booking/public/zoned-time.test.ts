import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayOf,
  formatSpan,
  formatTime,
  offsetAt,
  startOfDay,
  utcBounds,
  zoneAbbreviation,
  zoneChoices,
  zoneLabel,
} from './zoned-time';

const HOUR = 3_600_000;
const hoursOf = (day: string, zone: string) =>
  (startOfDay(addDays(day, 1), zone).getTime() - startOfDay(day, zone).getTime()) / HOUR;

describe('zoned time', () => {
  it('reads offsets on both sides of the 2026 changes', () => {
    expect(offsetAt(Date.parse('2026-03-29T00:59:00Z'), 'Europe/Berlin')).toBe(1 * HOUR);
    expect(offsetAt(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe(2 * HOUR);
    expect(offsetAt(Date.parse('2026-03-08T06:59:00Z'), 'America/New_York')).toBe(-5 * HOUR);
    expect(offsetAt(Date.parse('2026-03-08T07:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
    expect(offsetAt(Date.parse('2026-10-25T00:59:00Z'), 'Europe/Berlin')).toBe(2 * HOUR);
    expect(offsetAt(Date.parse('2026-10-25T01:00:00Z'), 'Europe/Berlin')).toBe(1 * HOUR);
    expect(offsetAt(Date.parse('2026-11-01T05:59:00Z'), 'America/New_York')).toBe(-4 * HOUR);
    expect(offsetAt(Date.parse('2026-11-01T06:00:00Z'), 'America/New_York')).toBe(-5 * HOUR);
  });

  it('starts a local day at its midnight, in UTC', () => {
    expect(startOfDay('2026-12-01', 'Europe/Berlin').toISOString()).toBe(
      '2026-11-30T23:00:00.000Z',
    );
    expect(startOfDay('2026-07-01', 'Europe/Berlin').toISOString()).toBe(
      '2026-06-30T22:00:00.000Z',
    );
    expect(startOfDay('2026-12-01', 'America/New_York').toISOString()).toBe(
      '2026-12-01T05:00:00.000Z',
    );
    expect(startOfDay('2026-12-01', 'UTC').toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(startOfDay('2026-12-01', 'Asia/Kolkata').toISOString()).toBe('2026-11-30T18:30:00.000Z');
  });

  it('gives the days of the clock changes 23 and 25 hours', () => {
    expect(hoursOf('2026-03-29', 'Europe/Berlin')).toBe(23);
    expect(hoursOf('2026-10-25', 'Europe/Berlin')).toBe(25);
    expect(hoursOf('2026-03-08', 'America/New_York')).toBe(23);
    expect(hoursOf('2026-11-01', 'America/New_York')).toBe(25);
    expect(hoursOf('2026-03-28', 'Europe/Berlin')).toBe(24);
    // Berlin's change is not New York's: the US change is a normal day in Berlin.
    expect(hoursOf('2026-03-08', 'Europe/Berlin')).toBe(24);
  });

  it('finds the start of a day whose midnight the clocks skip', () => {
    // Chile springs forward at midnight: 2026-09-06 00:00 does not exist in Santiago.
    const start = startOfDay('2026-09-06', 'America/Santiago');
    expect(dayOf(start, 'America/Santiago')).toBe('2026-09-06');
    expect(dayOf(start.getTime() - 1000, 'America/Santiago')).toBe('2026-09-05');
  });

  it('puts an instant on its local day', () => {
    expect(dayOf('2026-03-28T23:30:00Z', 'Europe/Berlin')).toBe('2026-03-29');
    expect(dayOf('2026-03-28T22:59:59Z', 'Europe/Berlin')).toBe('2026-03-28');
    expect(dayOf('2026-11-02T04:30:00Z', 'America/New_York')).toBe('2026-11-01');
    expect(dayOf('2026-11-02T05:00:00Z', 'America/New_York')).toBe('2026-11-02');
  });

  it('bounds a run of local days in UTC', () => {
    expect(utcBounds('2026-10-01', '2026-11-01', 'Europe/Berlin')).toEqual({
      from: '2026-09-30T22:00:00.000Z',
      to: '2026-10-31T23:00:00.000Z',
    });
    expect(utcBounds('2026-11-01', '2026-12-01', 'America/New_York')).toEqual({
      from: '2026-11-01T04:00:00.000Z',
      to: '2026-12-01T05:00:00.000Z',
    });
  });

  it('formats times in the zone it is given, naming the zone', () => {
    const start = '2026-12-01T08:00:00Z';
    expect(formatTime(start, 'Europe/Berlin')).toBe('9:00 AM');
    expect(formatTime(start, 'America/New_York')).toBe('3:00 AM');
    expect(zoneAbbreviation(start, 'America/New_York')).toBe('EST');
    expect(zoneLabel('America/New_York')).toBe('America/New York');
    expect(formatSpan(start, '2026-12-01T08:30:00Z', 'Europe/Berlin')).toBe(
      'Tuesday, December 1, 2026, 9:00 AM – 9:30 AM (Europe/Berlin, GMT+1)',
    );
    expect(formatSpan('2026-12-02T04:30:00Z', '2026-12-02T05:30:00Z', 'America/New_York')).toBe(
      'Tuesday, December 1, 2026, 11:30 PM – Wednesday, December 2, 2026, 12:30 AM (America/New York, EST)',
    );
  });

  it('offers every zone the browser knows, and the current one', () => {
    const zones = zoneChoices('Europe/Berlin');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('America/New_York');
    expect(zones).toContain('UTC');
    expect(zoneChoices('Etc/GMT+5')).toContain('Etc/GMT+5');
  });

  it('shows the same UTC time an hour apart across a change, and names the zone’s new offset', () => {
    // 08:00 UTC: 9:00 in Berlin before 29 March, 10:00 after.
    expect(formatTime('2026-03-28T08:00:00Z', 'Europe/Berlin')).toBe('9:00 AM');
    expect(formatTime('2026-03-30T08:00:00Z', 'Europe/Berlin')).toBe('10:00 AM');
    expect(zoneAbbreviation('2026-03-30T08:00:00Z', 'Europe/Berlin')).toBe('GMT+2');
    expect(formatTime('2026-03-07T14:00:00Z', 'America/New_York')).toBe('9:00 AM');
    expect(formatTime('2026-03-09T14:00:00Z', 'America/New_York')).toBe('10:00 AM');
    expect(zoneAbbreviation('2026-03-09T14:00:00Z', 'America/New_York')).toBe('EDT');
    // The repeated hour of 25 October in Berlin: two different instants, both 2:30.
    expect(formatTime('2026-10-25T00:30:00Z', 'Europe/Berlin')).toBe('2:30 AM');
    expect(formatTime('2026-10-25T01:30:00Z', 'Europe/Berlin')).toBe('2:30 AM');
    expect(zoneAbbreviation('2026-10-25T00:30:00Z', 'Europe/Berlin')).toBe('GMT+2');
    expect(zoneAbbreviation('2026-10-25T01:30:00Z', 'Europe/Berlin')).toBe('GMT+1');
  });
});
