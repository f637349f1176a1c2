// Prefer, Accept, profile and range handling as PostgREST answers them.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  checkProfile,
  negotiateFormat,
  pageStatus,
  parsePreferences,
  rangeFromHeader,
} from './negotiation.ts';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('negotiation', () => {
  it('reads the preferences postgrest-js joins with commas and ignores unknown ones', () => {
    const prefs = parsePreferences(
      req({
        prefer:
          'return=representation, count=exact,resolution=merge-duplicates,missing=default,tx=commit,bogus',
      }),
    );
    expect(prefs).toMatchObject({
      return: 'representation',
      count: 'exact',
      resolution: 'merge-duplicates',
      missing: 'default',
    });
    expect(prefs.applied).toEqual([
      'return=representation',
      'count=exact',
      'resolution=merge-duplicates',
      'missing=default',
    ]);
  });

  it('picks the response format from Accept', () => {
    expect(negotiateFormat(req({}))).toEqual({ kind: 'array', stripNulls: false });
    expect(negotiateFormat(req({ accept: 'application/vnd.pgrst.object+json' }))).toEqual({
      kind: 'object',
      stripNulls: false,
    });
    expect(
      negotiateFormat(req({ accept: 'application/vnd.pgrst.array+json;nulls=stripped' })),
    ).toEqual({ kind: 'array', stripNulls: true });
    expect(negotiateFormat(req({ accept: 'text/csv' }))).toEqual({
      kind: 'csv',
      stripNulls: false,
    });
    expect(() => negotiateFormat(req({ accept: 'image/png' }))).toThrow(
      /None of these media types/,
    );
  });

  it('exposes only public', () => {
    expect(() => checkProfile(req({ 'accept-profile': 'public' }))).not.toThrow();
    expect(() => checkProfile(req({ 'content-profile': 'auth' }))).toThrow('Invalid schema: auth');
  });

  it('reads Range headers', () => {
    expect(rangeFromHeader(req({ range: '0-9' }))).toEqual({ offset: 0, limit: 10 });
    expect(rangeFromHeader(req({ range: '5-' }))).toEqual({ offset: 5 });
    expect(() => rangeFromHeader(req({ range: '5-2' }))).toThrow('Requested range not satisfiable');
  });

  it('answers 200, 206 and 416 with Content-Range like PostgREST', () => {
    expect(pageStatus(0, 3, null)).toEqual({ status: 200, contentRange: '0-2/*' });
    expect(pageStatus(0, 0, null)).toEqual({ status: 200, contentRange: '*/*' });
    expect(pageStatus(0, 3, 3)).toEqual({ status: 200, contentRange: '0-2/3' });
    expect(pageStatus(1, 2, 5)).toEqual({ status: 206, contentRange: '1-2/5' });
    expect(pageStatus(0, 0, 0)).toEqual({ status: 200, contentRange: '*/0' });
    expect(pageStatus(5, 0, 5)).toEqual({ status: 206, contentRange: '*/5' });
    expect(() => pageStatus(6, 0, 5)).toThrow('Requested range not satisfiable');
  });
});
