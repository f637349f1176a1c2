// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { API_KEYS } from '../_shared/limits.ts';
import { encodeCursor } from './cursor.ts';
import { parseEntriesQuery, parseSince } from './query.ts';

const parse = (query: string) => parseEntriesQuery(new URLSearchParams(query));

describe('parseSince', () => {
  it('takes a date as midnight UTC and a zoned timestamp as that instant', () => {
    expect(parseSince('2026-11-24')).toBe('2026-11-24T00:00:00.000Z');
    expect(parseSince('2026-11-24T09:30:00Z')).toBe('2026-11-24T09:30:00.000Z');
    expect(parseSince('2026-11-24T09:30:00+02:00')).toBe('2026-11-24T07:30:00.000Z');
  });

  it.each(['yesterday', '2026-11-24T09:30:00', '2026-02-31', '1700000000', ''])(
    'refuses %j',
    (text) => expect(parseSince(text)).toBeNull(),
  );

  it('takes the first and the last moment of years 0001 to 9999 (UTC)', () => {
    expect(parseSince('0001-01-01')).toBe('0001-01-01T00:00:00.000Z');
    expect(parseSince('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(parseSince('9999-12-31')).toBe('9999-12-31T00:00:00.000Z');
    expect(parseSince('9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z');
    expect(parseSince('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
  });

  // Postgres has no year 0 and the API serves no year past 9999: each used to reach the database
  // and come back as a 503 that told the client to retry.
  it.each([
    ['year 0', '0000-01-01'],
    ['year 0 with a time', '0000-06-01T00:00:00Z'],
    ['year 10000', '10000-01-01'],
    ['year 10000 with a time', '+010000-01-01T00:00:00Z'],
    ['a zone that moves it into year 10000', '9999-12-31T23:00:00-05:00'],
    ['a zone that moves it into year 0', '0001-01-01T00:00:00+01:00'],
    ['a day that does not exist, with a zone', '2026-02-31T10:00:00+00:00'],
    ['February 29th of a common year', '2025-02-29'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['a zone of 16 hours', '2026-01-01T00:00:00+16:00'],
  ])('refuses %s (%j)', (_label, text) => expect(parseSince(text)).toBeNull());
});

describe('parseEntriesQuery', () => {
  it('defaults to the first page of the default size', () => {
    expect(parse('')).toEqual({
      ok: true,
      query: { since: null, after: null, rawCursor: null, limit: API_KEYS.defaultPageSize },
    });
  });

  it('lowers a large limit to the largest page', () => {
    const parsed = parse(`limit=${API_KEYS.maxPageSize * 10}`);
    expect(parsed.ok && parsed.query.limit).toBe(API_KEYS.maxPageSize);
  });

  it('reads a cursor written by an earlier answer and keeps it as sent', () => {
    const cursor = encodeCursor({
      createdAt: '2026-11-24T09:30:00.5+00:00',
      id: 'a'.repeat(8) + '-aaaa-4aaa-8aaa-' + 'a'.repeat(12),
    });
    const parsed = parse(`cursor=${cursor}&since=2026-11-01`);
    expect(parsed).toMatchObject({
      ok: true,
      query: {
        rawCursor: cursor,
        since: '2026-11-01T00:00:00.000Z',
        after: { createdAt: '2026-11-24T09:30:00.5+00:00' },
      },
    });
  });

  it('names `since` and `cursor` when they carry a date Postgres cannot hold', () => {
    const id = 'a'.repeat(8) + '-aaaa-4aaa-8aaa-' + 'a'.repeat(12);
    const cursor = btoa(`v1|0000-01-01T00:00:00+00:00|${id}`).replace(/=+$/, '');
    expect(parse(`since=0000-01-01&cursor=${cursor}`)).toEqual({
      ok: false,
      fields: {
        since: expect.stringContaining('0001'),
        cursor: expect.stringContaining('next_cursor'),
      },
    });
  });

  it('names every bad parameter', () => {
    expect(parse('limit=0&since=soon&cursor=%2F%2F')).toEqual({
      ok: false,
      fields: {
        limit: expect.stringContaining(`1 to ${API_KEYS.maxPageSize}`),
        since: expect.stringContaining('timestamp with a zone'),
        cursor: expect.stringContaining('next_cursor'),
      },
    });
    expect(parse('limit=-3')).toMatchObject({ ok: false, fields: { limit: expect.any(String) } });
    expect(parse('limit=2.5')).toMatchObject({ ok: false, fields: { limit: expect.any(String) } });
    expect(parse('limit=5&limit=6')).toMatchObject({
      ok: false,
      fields: { limit: 'Give this parameter once.' },
    });
  });
});
