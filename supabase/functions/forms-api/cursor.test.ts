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

  it('reads the first and the last moment of years 0001 to 9999 (UTC)', () => {
    for (const createdAt of ['0001-01-01T00:00:00+00:00', '9999-12-31T23:59:59.999999+00:00']) {
      expect(decodeCursor(encodeCursor({ createdAt, id: ID }))).toEqual({ createdAt, id: ID });
    }
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
    // Dates Postgres cannot hold (or the API does not serve) used to reach the database: 503.
    ['year 0', btoa(`v1|0000-01-01T00:00:00+00:00|${ID}`)],
    ['year 10000', btoa(`v1|10000-01-01T00:00:00+00:00|${ID}`)],
    ['a zone that moves it into year 10000', btoa(`v1|9999-12-31T23:00:00-05:00|${ID}`)],
    ['a zone that moves it into year 0', btoa(`v1|0001-01-01T00:00:00+01:00|${ID}`)],
    ['a day that does not exist', btoa(`v1|2026-02-31T09:30:00+00:00|${ID}`)],
    ['hour 24', btoa(`v1|2026-11-24T24:00:00+00:00|${ID}`)],
  ])('refuses %s', (_label, text) => {
    expect(decodeCursor(text.replace(/=+$/, ''))).toBeNull();
  });
});
