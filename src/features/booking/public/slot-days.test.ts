import { describe, expect, it } from 'vitest';
import {
  addMonths,
  groupSlotsByDay,
  lastBookableDay,
  MAX_SLOT_RANGE_DAYS,
  monthGrid,
  monthRange,
  slotLabels,
  weekdayOf,
} from './slot-days';

/** Every `minutes` from `from` (UTC ISO) for `count` slots. */
function every(from: string, minutes: number, count: number): string[] {
  const start = Date.parse(from);
  return Array.from({ length: count }, (_, i) =>
    new Date(start + i * minutes * 60_000).toISOString().replace('.000Z', 'Z'),
  );
}

describe('slot days', () => {
  it('groups slots into the visitor’s days, not UTC days', () => {
    const slots = ['2026-12-01T23:30:00Z', '2026-12-01T08:00:00Z', '2026-12-02T00:30:00Z'];
    expect(groupSlotsByDay(slots, 'Europe/Berlin')).toEqual(
      new Map([
        ['2026-12-01', ['2026-12-01T08:00:00Z']],
        ['2026-12-02', ['2026-12-01T23:30:00Z', '2026-12-02T00:30:00Z']],
      ]),
    );
    expect(groupSlotsByDay(slots, 'America/New_York')).toEqual(
      new Map([
        // 19:30 on 1 December in New York.
        ['2026-12-01', ['2026-12-01T08:00:00Z', '2026-12-01T23:30:00Z', '2026-12-02T00:30:00Z']],
      ]),
    );
  });

  it('keeps a 23-hour day whole: hourly slots around the clock', () => {
    // Every hour from Berlin's midnight of 28 March to past the end of 29 March.
    const slots = every('2026-03-27T23:00:00Z', 60, 24 + 23 + 2);
    const days = groupSlotsByDay(slots, 'Europe/Berlin');
    expect(days.get('2026-03-28')).toHaveLength(24);
    expect(days.get('2026-03-29')).toHaveLength(23);
    expect(days.get('2026-03-30')).toHaveLength(2);
    const ny = groupSlotsByDay(every('2026-03-07T05:00:00Z', 60, 24 + 23 + 1), 'America/New_York');
    expect(ny.get('2026-03-07')).toHaveLength(24);
    expect(ny.get('2026-03-08')).toHaveLength(23);
    expect(ny.get('2026-03-09')).toHaveLength(1);
  });

  it('keeps a 25-hour day whole', () => {
    const berlin = groupSlotsByDay(every('2026-10-24T22:00:00Z', 60, 25 + 1), 'Europe/Berlin');
    expect(berlin.get('2026-10-25')).toHaveLength(25);
    expect(berlin.get('2026-10-26')).toHaveLength(1);
    const ny = groupSlotsByDay(every('2026-11-01T04:00:00Z', 30, 50 + 2), 'America/New_York');
    expect(ny.get('2026-11-01')).toHaveLength(50);
    expect(ny.get('2026-11-02')).toHaveLength(2);
  });

  it('lays a month out in weeks from Monday', () => {
    // 1 March 2026 is a Sunday.
    expect(weekdayOf('2026-03-01')).toBe(6);
    const march = monthGrid('2026-03');
    expect(march[0]).toEqual([null, null, null, null, null, null, '2026-03-01']);
    expect(march.at(-1)).toEqual(['2026-03-30', '2026-03-31', null, null, null, null, null]);
    expect(march.flat().filter(Boolean)).toHaveLength(31);
    expect(monthGrid('2026-02').flat().filter(Boolean)).toHaveLength(28);
    expect(monthGrid('2028-02').flat().filter(Boolean)).toHaveLength(29);
  });

  it('moves between months across years', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2027-01', -1)).toBe('2026-12');
  });

  it('asks for a month’s local days in UTC, from today, within the 62-day cap', () => {
    expect(monthRange('2026-03', '2026-02-10', 'Europe/Berlin')).toEqual({
      from: '2026-02-28T23:00:00.000Z',
      to: '2026-03-31T22:00:00.000Z',
    });
    expect(monthRange('2026-11', '2026-11-15', 'America/New_York')).toEqual({
      from: '2026-11-15T05:00:00.000Z',
      to: '2026-12-01T05:00:00.000Z',
    });
    expect(monthRange('2026-10', '2026-11-02', 'Europe/Berlin')).toBeNull();
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Pacific/Kiritimati']) {
      const range = monthRange('2026-10', '2026-01-01', zone)!;
      expect(Date.parse(range.to) - Date.parse(range.from)).toBeLessThanOrEqual(
        MAX_SLOT_RANGE_DAYS * 86_400_000,
      );
    }
  });

  it('ends the calendar a day past the horizon', () => {
    expect(lastBookableDay('2026-12-01', 60)).toBe('2027-01-31');
  });

  it('bounds the months of the changes by their real midnights', () => {
    expect(monthRange('2026-03', '2026-03-01', 'America/New_York')).toEqual({
      from: '2026-03-01T05:00:00.000Z',
      to: '2026-04-01T04:00:00.000Z',
    });
    expect(monthRange('2026-10', '2026-10-01', 'Europe/Berlin')).toEqual({
      from: '2026-09-30T22:00:00.000Z',
      to: '2026-10-31T23:00:00.000Z',
    });
  });

  it('tells the repeated hour’s slots apart by their offset', () => {
    const slots = every('2026-11-01T04:30:00Z', 30, 5);
    expect(slotLabels(slots, 'America/New_York')).toEqual([
      '12:30 AM',
      '1:00 AM EDT',
      '1:30 AM EDT',
      '1:00 AM EST',
      '1:30 AM EST',
    ]);
    expect(slotLabels(['2026-12-01T08:00:00Z'], 'Europe/Berlin')).toEqual(['9:00 AM']);
  });
});
