// The database-free rendering used when Postgres cannot render a tuple.
import { describe, expect, it } from 'vitest';
import { fallbackValue } from './values.ts';

describe('fallbackValue', () => {
  it('renders numbers, booleans and json like to_jsonb', () => {
    expect(fallbackValue('int8', '42')).toBe(42);
    expect(fallbackValue('numeric', '12.50')).toBe(12.5);
    expect(fallbackValue('numeric', 'NaN')).toBe('NaN');
    expect(fallbackValue('bool', 't')).toBe(true);
    expect(fallbackValue('bool', 'f')).toBe(false);
    expect(fallbackValue('jsonb', '{"a": [1]}')).toEqual({ a: [1] });
    expect(fallbackValue('text', null)).toBeNull();
  });

  it('prints timestamps in ISO form', () => {
    expect(fallbackValue('timestamptz', '2025-01-02 03:04:05.678+00')).toBe(
      '2025-01-02T03:04:05.678+00:00',
    );
    expect(fallbackValue('timestamp', '2025-01-02 03:04:05')).toBe('2025-01-02T03:04:05');
  });
});
