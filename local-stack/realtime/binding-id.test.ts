// Stable ids for postgres_changes bindings.
import { describe, expect, it } from 'vitest';
import { bindingId } from './binding-id.ts';

describe('bindingId', () => {
  const params = { event: '*', schema: 'public', table: 'entries', filter: 'form_id=eq.1' };

  it('is a positive integer in phash2 range and stable across key order', () => {
    const id = bindingId(params);
    expect(Number.isInteger(id)).toBe(true);
    expect(id).toBeGreaterThan(0);
    expect(id).toBeLessThan(2 ** 27);
    expect(
      bindingId({ filter: 'form_id=eq.1', table: 'entries', schema: 'public', event: '*' }),
    ).toBe(id);
  });

  it('differs when any param differs', () => {
    expect(bindingId({ ...params, event: 'INSERT' })).not.toBe(bindingId(params));
    expect(bindingId({ ...params, filter: 'form_id=eq.2' })).not.toBe(bindingId(params));
  });
});
