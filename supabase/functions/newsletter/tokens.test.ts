// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { newToken } from './tokens.ts';

describe('newToken', () => {
  it('makes 43 URL-safe characters (256 random bits), different every time', () => {
    const tokens = Array.from({ length: 200 }, newToken);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
