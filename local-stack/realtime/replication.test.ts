import { describe, expect, it } from 'vitest';
import { lsnBefore, lsnValue } from './replication.ts';

describe('lsnBefore', () => {
  it('steps back one byte, borrowing from the high half', () => {
    expect(lsnBefore('0/1911100')).toBe('0/19110FF');
    expect(lsnBefore('2/0')).toBe('1/FFFFFFFF');
    expect(lsnBefore('A/10')).toBe('A/F');
  });
});

describe('lsnValue', () => {
  it('orders positions by both halves', () => {
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(lsnValue('0/1911100') > lsnValue('0/19110FF')).toBe(true);
    expect(lsnValue('A/10')).toBe(0xa_0000_0010n);
  });
});
