// Parsing of postgres_changes filter strings, and the comparisons made without the database.
import { describe, expect, it } from 'vitest';
import {
  canonicalText,
  FilterParseError,
  matchWithoutDatabase,
  MAX_IN_VALUES,
  parseFilter,
} from './filters.ts';

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

describe('canonicalText', () => {
  it('prints integers, uuids and booleans as Postgres does', () => {
    expect(canonicalText('int8', ' +007 ')).toBe('7');
    expect(canonicalText('int4', '-0')).toBe('0');
    expect(canonicalText('int8', '1_000')).toBe('1000');
    expect(canonicalText('uuid', '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}')).toBe(
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    );
    expect(canonicalText('uuid', 'a0eebc999c0b4ef8bb6d6bb9bd380a11')).toBe(
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    );
    expect(['TRUE', ' yes ', 'on', '1', 't'].map((v) => canonicalText('bool', v))).toEqual([
      't',
      't',
      't',
      't',
      't',
    ]);
    expect(['false', 'n', 'off', '0'].map((v) => canonicalText('bool', v))).toEqual([
      'f',
      'f',
      'f',
      'f',
    ]);
    expect(canonicalText('text', ' As Is ')).toBe(' As Is ');
  });

  it('leaves to Postgres what it cannot reproduce exactly', () => {
    expect(canonicalText('int4', '0x1F')).toBeUndefined();
    expect(canonicalText('bool', 'o')).toBeUndefined();
    expect(canonicalText('numeric', '1.0')).toBeUndefined();
    expect(canonicalText('timestamptz', '2024-01-01')).toBeUndefined();
    expect(canonicalText('name', 'x')).toBeUndefined();
  });
});

describe('matchWithoutDatabase', () => {
  const uuid = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';

  it('decides equality and `in` on canonical-text types', () => {
    expect(matchWithoutDatabase('uuid', { op: 'eq', value: uuid.toUpperCase() }, uuid)).toBe(true);
    expect(matchWithoutDatabase('uuid', { op: 'neq', value: uuid }, uuid)).toBe(false);
    expect(matchWithoutDatabase('int8', { op: 'in', value: ['1', '010'] }, '10')).toBe(true);
    expect(matchWithoutDatabase('text', { op: 'in', value: ['a', 'b'] }, 'c')).toBe(false);
    expect(matchWithoutDatabase('bool', { op: 'eq', value: 'true' }, 't')).toBe(true);
  });

  it('orders integers numerically, not as text', () => {
    expect(matchWithoutDatabase('int4', { op: 'gt', value: '3' }, '10')).toBe(true);
    expect(matchWithoutDatabase('int4', { op: 'lte', value: '-5' }, '-6')).toBe(true);
    expect(
      matchWithoutDatabase('int8', { op: 'lt', value: '9007199254740993' }, '9007199254740992'),
    ).toBe(true);
  });

  it('answers undefined where collation, scale or time zones matter', () => {
    expect(matchWithoutDatabase('text', { op: 'lt', value: 'b' }, 'a')).toBeUndefined();
    expect(matchWithoutDatabase('numeric', { op: 'eq', value: '1.0' }, '1.00')).toBeUndefined();
    expect(matchWithoutDatabase('int4', { op: 'in', value: ['1', '0x2'] }, '2')).toBeUndefined();
  });
});
