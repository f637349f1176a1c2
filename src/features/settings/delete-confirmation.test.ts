import { describe, expect, it } from 'vitest';
import { confirmsDeletion } from './delete-confirmation';

describe('confirmsDeletion', () => {
  it("accepts the account's e-mail in any case, trimmed", () => {
    expect(confirmsDeletion('ada@example.com', 'ada@example.com')).toBe(true);
    expect(confirmsDeletion('  Ada@Example.COM ', 'ada@example.com')).toBe(true);
  });

  it('accepts the word DELETE in capitals only', () => {
    expect(confirmsDeletion('DELETE', 'ada@example.com')).toBe(true);
    expect(confirmsDeletion('DELETE', undefined)).toBe(true);
    expect(confirmsDeletion('delete', 'ada@example.com')).toBe(false);
  });

  it('refuses anything else', () => {
    expect(confirmsDeletion('', 'ada@example.com')).toBe(false);
    expect(confirmsDeletion('   ', '')).toBe(false);
    expect(confirmsDeletion('ada@example', 'ada@example.com')).toBe(false);
    expect(confirmsDeletion('grace@example.com', 'ada@example.com')).toBe(false);
    expect(confirmsDeletion('', undefined)).toBe(false);
  });
});
