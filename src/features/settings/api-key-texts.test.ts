import { describe, expect, it } from 'vitest';
import { formatKeyDate, keyDates } from './api-key-texts';

const UTC = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

describe('keyDates', () => {
  it('says when a key was created and last used', () => {
    expect(
      keyDates({ created_at: '2026-11-24T14:47:00Z', last_used_at: '2026-11-25T09:05:00Z' }, UTC),
    ).toBe('Created Nov 24, 2026, 2:47 PM · last used Nov 25, 2026, 9:05 AM');
  });

  it('says so when a key was never used', () => {
    expect(keyDates({ created_at: '2026-11-24T14:47:00Z', last_used_at: null }, UTC)).toBe(
      'Created Nov 24, 2026, 2:47 PM · never used',
    );
  });

  it('writes nothing for a value that is not a date', () => {
    expect(formatKeyDate('soon', UTC)).toBe('');
  });
});
