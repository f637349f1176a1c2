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
