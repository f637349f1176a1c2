// Parsing of postgres_changes filter strings.
import { describe, expect, it } from 'vitest';
import { FilterParseError, MAX_IN_VALUES, parseFilter } from './filters.ts';

describe('parseFilter', () => {
  it('treats a missing or blank filter as no filter', () => {
    expect(parseFilter(undefined)).toEqual([]);
    expect(parseFilter('  ')).toEqual([]);
  });

  it.each(['eq', 'neq', 'lt', 'lte', 'gt', 'gte'])('parses the %s operator', (op) => {
    expect(parseFilter(`qty=${op}.5`)).toEqual([{ column: 'qty', op, value: '5' }]);
  });

  it('keeps dots and equals signs inside the value', () => {
    expect(parseFilter('email=eq.a.b=c@example.com')).toEqual([
      { column: 'email', op: 'eq', value: 'a.b=c@example.com' },
    ]);
  });

  it('parses in-lists, trimming and unquoting values', () => {
    expect(parseFilter('id=in.(1, 2,"a,b")')).toEqual([
      { column: 'id', op: 'in', value: ['1', '2', 'a,b'] },
    ]);
  });

  it('ANDs comma-separated conditions without splitting in-lists', () => {
    expect(parseFilter('a=eq.1,b=in.(2,3)')).toEqual([
      { column: 'a', op: 'eq', value: '1' },
      { column: 'b', op: 'in', value: ['2', '3'] },
    ]);
  });

  it('rejects unknown operators, malformed conditions and oversized in-lists', () => {
    expect(() => parseFilter('qty=like.5')).toThrow(FilterParseError);
    expect(() => parseFilter('qty')).toThrow(FilterParseError);
    expect(() => parseFilter('id=in.1,2')).toThrow(FilterParseError);
    const many = Array.from({ length: MAX_IN_VALUES + 1 }, (_, i) => i).join(',');
    expect(() => parseFilter(`id=in.(${many})`)).toThrow(/Maximum is 100/);
  });
});
