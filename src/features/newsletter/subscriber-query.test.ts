import { describe, expect, it } from 'vitest';
import {
  containsPattern,
  lastPage,
  logicTreeValue,
  olderThanFilter,
  showingText,
  subscriberSearchFilter,
} from './subscriber-query';

describe('containsPattern', () => {
  it("escapes LIKE's own characters so they match themselves", () => {
    expect(containsPattern('ada')).toBe('%ada%');
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('back\\slash')).toBe('%back\\\\slash%');
  });

  it('turns * into one character of any kind, since PostgREST reads every * as %', () => {
    expect(containsPattern('a*b')).toBe('%a_b%');
    expect(containsPattern('*')).toBe('%_%');
  });
});

describe('logicTreeValue', () => {
  it('double-quotes a value, with a backslash before " and \\ only', () => {
    expect(logicTreeValue('a,b(c).d:e')).toBe('"a,b(c).d:e"');
    expect(logicTreeValue('say "hi"')).toBe('"say \\"hi\\""');
    expect(logicTreeValue('a\\b')).toBe('"a\\\\b"');
  });
});

describe('subscriberSearchFilter', () => {
  it('is null for an empty or blank search', () => {
    expect(subscriberSearchFilter('')).toBeNull();
    expect(subscriberSearchFilter('   ')).toBeNull();
  });

  it('matches the e-mail or the name, the term trimmed', () => {
    expect(subscriberSearchFilter('  Ada ')).toBe('email.ilike."%Ada%",name.ilike."%Ada%"');
  });

  it("keeps the logic tree's syntax characters inside the quoted value", () => {
    expect(subscriberSearchFilter('a,name.eq.x)')).toBe(
      'email.ilike."%a,name.eq.x)%",name.ilike."%a,name.eq.x)%"',
    );
    expect(subscriberSearchFilter('(o)')).toBe('email.ilike."%(o)%",name.ilike."%(o)%"');
  });

  it('escapes for LIKE first, then for the quotes: a \\ reaches PostgreSQL as its escape', () => {
    // The term 50%_off"\ : LIKE needs 50\%\_off"\\ ; quoted, each \ and " gets another \.
    expect(subscriberSearchFilter('50%_off"\\')).toBe(
      'email.ilike."%50\\\\%\\\\_off\\"\\\\\\\\%",name.ilike."%50\\\\%\\\\_off\\"\\\\\\\\%"',
    );
    expect(subscriberSearchFilter('a*')).toBe('email.ilike."%a_%",name.ilike."%a_%"');
  });
});

describe('olderThanFilter', () => {
  it('reads the rows after one in (created_at desc, id desc) order, both values quoted', () => {
    expect(
      olderThanFilter({
        created_at: '2026-11-01T10:00:00.123456+00:00',
        id: '00000000-0000-4000-b100-000000000001',
      }),
    ).toBe(
      'created_at.lt."2026-11-01T10:00:00.123456+00:00",and(created_at.eq."2026-11-01T10:00:00.123456+00:00",id.lt."00000000-0000-4000-b100-000000000001")',
    );
  });
});

describe('showingText and lastPage', () => {
  it('says which rows the page shows, of how many', () => {
    expect(showingText(0, 50, 1234, false)).toBe('Showing 1–50 of 1,234 subscribers');
    expect(showingText(1, 50, 1234, false)).toBe('Showing 51–100 of 1,234 subscribers');
    expect(showingText(24, 34, 1234, false)).toBe('Showing 1,201–1,234 of 1,234 subscribers');
    expect(showingText(0, 1, 1, true)).toBe('Showing 1–1 of 1 matching subscriber');
    expect(showingText(0, 0, 0, true)).toBe('No matching subscribers');
    expect(showingText(0, 0, 0, false)).toBe('No subscribers');
  });

  it('finds the last page that holds rows', () => {
    expect(lastPage(0)).toBe(0);
    expect(lastPage(50)).toBe(0);
    expect(lastPage(51)).toBe(1);
    expect(lastPage(1234)).toBe(24);
  });
});
