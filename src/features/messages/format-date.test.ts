import { describe, expect, it } from 'vitest';
import { dateStamp, formatMessageDate } from './format-date';

// A fixed time zone, so the expectations hold on any machine.
const UTC = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

describe('formatMessageDate', () => {
  it('prints the medium date and short time', () => {
    expect(formatMessageDate('2026-11-24T14:47:16.433395+00:00', UTC)).toBe(
      'Nov 24, 2026, 2:47 PM',
    );
  });

  it('reads the offset of the timestamp', () => {
    expect(formatMessageDate('2026-01-05T09:05:00+02:00', UTC)).toBe('Jan 5, 2026, 7:05 AM');
  });

  it('uses the medium date style by default', () => {
    expect(formatMessageDate('2026-07-04T12:00:00Z')).toMatch(
      /^Jul [345], 2026, \d{1,2}:\d{2}\s?[AP]M$/,
    );
  });

  it('prints nothing for a value that is not a date', () => {
    expect(formatMessageDate('yesterday', UTC)).toBe('');
  });
});

describe('dateStamp', () => {
  it('pads month and day', () => {
    expect(dateStamp(new Date(2026, 0, 7, 23, 59))).toBe('2026-01-07');
  });
});
