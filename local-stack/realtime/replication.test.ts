import { describe, expect, it } from 'vitest';
import { lsnBefore } from './replication.ts';

describe('lsnBefore', () => {
  it('steps back one byte, borrowing from the high half', () => {
    expect(lsnBefore('0/1911100')).toBe('0/19110FF');
    expect(lsnBefore('2/0')).toBe('1/FFFFFFFF');
    expect(lsnBefore('A/10')).toBe('A/F');
  });
});
