import { describe, expect, it } from 'vitest';
import { change, countryName, formatCount } from './stats-format';

describe('change', () => {
  it('is relative for counts, with an arrow and words', () => {
    expect(change(120, 100)).toEqual({
      direction: 'up',
      amount: 20,
      text: '↑ 20%',
      label: 'up 20% from the previous period',
    });
    expect(change(75, 100)).toMatchObject({ direction: 'down', text: '↓ 25%' });
    expect(change(100, 100)).toMatchObject({ direction: 'same', text: '±0%' });
    expect(change(5, 0)).toMatchObject({ direction: 'new', text: 'new' });
    expect(change(0, 0)).toMatchObject({ direction: 'same' });
  });

  it('is in percentage points for a rate', () => {
    expect(change(44, 40, 'rate')).toEqual({
      direction: 'up',
      amount: 4,
      text: '↑ 4 pts',
      label: 'up 4 percentage points from the previous period',
    });
    expect(change(30, 40, 'rate')).toMatchObject({ direction: 'down', text: '↓ 10 pts' });
  });
});

describe('formatting', () => {
  it('names countries and shortens large counts', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('zz')).toBe('zz');
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(1_234_567)).toBe('1.2M');
  });
});
