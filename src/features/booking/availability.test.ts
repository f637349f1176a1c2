import { describe, expect, it } from 'vitest';
import {
  formatTime,
  isIsoDate,
  nextRange,
  parseTime,
  rangeProblems,
  toOverrideValues,
  toStoredOverrides,
  toStoredRanges,
} from './availability';

describe('parseTime and formatTime', () => {
  it('reads HH:MM and H:MM as minutes of the day, 24:00 as its end', () => {
    expect(parseTime('09:00')).toBe(540);
    expect(parseTime('9:30')).toBe(570);
    expect(parseTime(' 17:05 ')).toBe(1025);
    expect(parseTime('00:00')).toBe(0);
    expect(parseTime('24:00')).toBe(1440);
  });

  it('refuses what is not a time of day', () => {
    for (const text of ['', '9', '9:5', '24:01', '25:00', '12:60', '9.30', 'nine', '-1:00'])
      expect(parseTime(text)).toBeNull();
  });

  it('writes minutes as HH:MM', () => {
    expect(formatTime(0)).toBe('00:00');
    expect(formatTime(545)).toBe('09:05');
    expect(formatTime(1440)).toBe('24:00');
  });
});

describe('rangeProblems', () => {
  const range = (start: string, end: string) => ({ start, end });

  it('accepts a range whose start is before its end', () => {
    expect(rangeProblems(range('09:00', '17:00'), [])).toEqual({});
    expect(rangeProblems(range('00:00', '24:00'), [])).toEqual({});
  });

  it('asks for both times in HH:MM', () => {
    expect(rangeProblems(range('', ''), [])).toEqual({
      start: 'Enter a start time.',
      end: 'Enter an end time.',
    });
    expect(rangeProblems(range('9am', '17:00'), [])).toEqual({ start: 'Use HH:MM, e.g. 09:00.' });
    expect(rangeProblems(range('09:00', '25:00'), [])).toEqual({ end: 'Use HH:MM, e.g. 17:00.' });
  });

  it('needs the end after the start', () => {
    expect(rangeProblems(range('12:00', '12:00'), [])).toEqual({
      end: 'The end must be after the start.',
    });
    expect(rangeProblems(range('17:00', '09:00'), [])).toEqual({
      end: 'The end must be after the start.',
    });
  });

  it('finds an overlap with another range of the day, in any order', () => {
    const others = [range('13:00', '17:00'), range('08:00', '10:00')];
    expect(rangeProblems(range('09:30', '11:00'), others)).toEqual({
      start: 'Overlaps 08:00–10:00.',
    });
    expect(rangeProblems(range('12:00', '13:30'), others)).toEqual({
      start: 'Overlaps 13:00–17:00.',
    });
    expect(rangeProblems(range('07:00', '18:00'), others)).toEqual({
      start: 'Overlaps 13:00–17:00.',
    });
  });

  it('lets ranges touch: one may start as the other ends', () => {
    expect(
      rangeProblems(range('10:00', '13:00'), [range('08:00', '10:00'), range('13:00', '14:00')]),
    ).toEqual({});
  });

  it('ignores other ranges that are themselves invalid', () => {
    expect(
      rangeProblems(range('09:00', '10:00'), [range('', '12:00'), range('11:00', '08:00')]),
    ).toEqual({});
  });
});

describe('stored ranges and overrides', () => {
  it('stores ranges as minutes, sorted by start', () => {
    expect(
      toStoredRanges([
        { start: '13:00', end: '17:00' },
        { start: '9:00', end: '12:00' },
      ]),
    ).toEqual([
      [540, 720],
      [780, 1020],
    ]);
  });

  it('stores overrides by date, a day off with no ranges even if it had some', () => {
    expect(
      toStoredOverrides([
        { date: '2026-12-31', dayOff: false, ranges: [{ start: '10:00', end: '12:00' }] },
        { date: '2026-12-24', dayOff: true, ranges: [{ start: '10:00', end: '12:00' }] },
      ]),
    ).toEqual([
      { date: '2026-12-24', ranges: [] },
      { date: '2026-12-31', ranges: [[600, 720]] },
    ]);
  });

  it('reads a stored override back', () => {
    expect(toOverrideValues({ date: '2026-12-24', ranges: [] })).toEqual({
      date: '2026-12-24',
      dayOff: true,
      ranges: [],
    });
    expect(toOverrideValues({ date: '2026-12-31', ranges: [[600, 1440]] })).toEqual({
      date: '2026-12-31',
      dayOff: false,
      ranges: [{ start: '10:00', end: '24:00' }],
    });
  });

  it('knows real dates', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('26-12-01')).toBe(false);
  });

  it('proposes a new range after the last one', () => {
    expect(nextRange([])).toEqual({ start: '09:00', end: '17:00' });
    expect(nextRange([{ start: '09:00', end: '12:00' }])).toEqual({ start: '13:00', end: '14:00' });
    expect(nextRange([{ start: '20:00', end: '24:00' }])).toEqual({ start: '23:00', end: '24:00' });
  });
});
