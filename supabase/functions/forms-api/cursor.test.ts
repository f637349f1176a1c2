// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.ts';

const ID = '6f1c2b9e-3a4d-4e5f-8a6b-7c8d9e0f1a2b';

describe('the entries cursor', () => {
  it('round-trips a timestamp to the microsecond and an id', () => {
    const cursor = { createdAt: '2026-11-24T09:30:00.123456+00:00', id: ID };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['another version', btoa(`v2|2026-11-24T09:30:00Z|${ID}`)],
    ['a bad id', btoa('v1|2026-11-24T09:30:00Z|not-an-id')],
    ['a bad time', btoa(`v1|yesterday|${ID}`)],
    ['a time without zone', btoa(`v1|2026-11-24T09:30:00|${ID}`)],
    ['extra parts', btoa(`v1|2026-11-24T09:30:00Z|${ID}|x`)],
    ['oversized', 'A'.repeat(201)],
  ])('refuses %s', (_label, text) => {
    expect(decodeCursor(text.replace(/=+$/, ''))).toBeNull();
  });
});
