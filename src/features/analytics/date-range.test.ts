import { describe, expect, it } from 'vitest';
import {
  customRangeProblem,
  presetRange,
  rangeDays,
  rangeFromParams,
  withCustomRange,
  withPreset,
} from './date-range';

// Late on 15 March 2026 in UTC; already the 16th east of it, still the 15th in UTC.
const NOW = new Date('2026-03-15T23:30:00Z');

describe('presetRange', () => {
  it('gives inclusive UTC dates ending today', () => {
    expect(presetRange('today', NOW)).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    expect(presetRange('7d', NOW)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange('30d', NOW)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(presetRange('month', NOW)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(rangeDays(presetRange('7d', NOW))).toBe(7);
    expect(rangeDays(presetRange('30d', NOW))).toBe(30);
  });
});

describe('customRangeProblem', () => {
  it('takes real dates in order, not in the future, at most 400 days', () => {
    expect(customRangeProblem('2026-01-01', '2026-01-31', NOW)).toBeNull();
    expect(customRangeProblem('2026-02-30', '2026-03-01', NOW)).toBe('Enter both dates.');
    expect(customRangeProblem('2026-03-02', '2026-03-01', NOW)).toBe(
      'The start date must not be after the end date.',
    );
    expect(customRangeProblem('2026-03-01', '2026-03-16', NOW)).toBe(
      'The end date must not be in the future.',
    );
    expect(customRangeProblem('2025-02-08', '2026-03-15', NOW)).toBe('Choose at most 400 days.');
    expect(customRangeProblem('2025-02-09', '2026-03-15', NOW)).toBeNull();
  });
});

describe('rangeFromParams', () => {
  const at = (query: string) => rangeFromParams(new URLSearchParams(query), NOW);

  it('reads a preset or a valid custom range, else the last 30 days', () => {
    expect(at('range=7d')).toEqual({ preset: '7d', from: '2026-03-09', to: '2026-03-15' });
    expect(at('range=custom&from=2026-01-01&to=2026-01-07')).toEqual({
      preset: 'custom',
      from: '2026-01-01',
      to: '2026-01-07',
    });
    const fallback = { preset: '30d', from: '2026-02-14', to: '2026-03-15' };
    expect(at('')).toEqual(fallback);
    expect(at('range=year')).toEqual(fallback);
    expect(at('range=custom&from=2020-01-01&to=2026-01-07')).toEqual(fallback);
  });
});

describe('withPreset and withCustomRange', () => {
  it('set the range in the URL and keep its other parameters', () => {
    const custom = withCustomRange(
      new URLSearchParams('site=s1&country=DE'),
      '2026-01-01',
      '2026-01-07',
    );
    expect(custom.toString()).toBe('site=s1&country=DE&range=custom&from=2026-01-01&to=2026-01-07');
    expect(rangeFromParams(custom, NOW)).toEqual({
      preset: 'custom',
      from: '2026-01-01',
      to: '2026-01-07',
    });
    const preset = withPreset(custom, '7d');
    expect(preset.toString()).toBe('site=s1&country=DE&range=7d');
    expect(rangeFromParams(preset, NOW).preset).toBe('7d');
  });
});
