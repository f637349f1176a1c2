// Prefer, Accept, profile and range handling as PostgREST answers them.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  appliedPreferences,
  checkMaxAffected,
  checkProfile,
  maxAffected,
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
    expect(prefs).toEqual({
      return: 'representation',
      count: 'exact',
      resolution: 'merge-duplicates',
      missing: 'default',
      tx: 'commit',
    });
    // Echoed in PostgREST's order, only those the kind of request acts on.
    expect(
      appliedPreferences(prefs, ['resolution', 'missing', 'return', 'count', 'tx', 'handling']),
    ).toEqual({
      'Preference-Applied':
        'resolution=merge-duplicates, missing=default, return=representation, count=exact, tx=commit',
    });
    expect(appliedPreferences(prefs, ['count'])).toEqual({ 'Preference-Applied': 'count=exact' });
  });

  it('keeps the first of a repeated preference, as PostgREST does', () => {
    expect(parsePreferences(req({ prefer: 'tx=commit, tx=rollback' })).tx).toBe('commit');
    expect(
      parsePreferences(req({ prefer: 'max-affected=5, handling=strict, max-affected=9' })),
    ).toEqual({ handling: 'strict', maxAffected: 5 });
  });

  it('refuses unknown preferences with handling=strict (PGRST122)', () => {
    expect(() => parsePreferences(req({ prefer: 'handling=strict, foo, bar=1' }))).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'PGRST122',
        message: 'Invalid preferences given with handling=strict',
        details: 'Invalid preferences: foo, bar=1',
      }),
    );
    expect(parsePreferences(req({ prefer: 'handling=lenient, foo' }))).toEqual({
      handling: 'lenient',
    });
  });

  it('applies and echoes max-affected only with handling=strict', () => {
    const lenient = parsePreferences(req({ prefer: 'max-affected=3' }));
    expect(maxAffected(lenient)).toBeUndefined();
    expect(appliedPreferences(lenient, ['max-affected'])).toEqual({});
    const strict = parsePreferences(req({ prefer: 'handling=strict,max-affected=3' }));
    expect(maxAffected(strict)).toBe(3);
    expect(appliedPreferences(strict, ['handling', 'max-affected'])).toEqual({
      'Preference-Applied': 'handling=strict, max-affected=3',
    });
    expect(() => checkMaxAffected(3, 3)).not.toThrow();
    expect(() => checkMaxAffected(3, 4)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'PGRST124',
        details: 'The query affects 4 rows',
      }),
    );
  });

  it('refuses the preferences the local stack does not implement instead of ignoring them', () => {
    for (const prefer of ['timezone=America/Los_Angeles', 'params=single-object']) {
      expect(() => parsePreferences(req({ prefer }))).toThrow(
        expect.objectContaining({ status: 400, code: 'PGRST127' }),
      );
    }
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
    expect(() => checkProfile(req({ 'accept-profile': 'public' }), ['public'])).not.toThrow();
    expect(() => checkProfile(req({ 'content-profile': 'auth' }), ['public'])).toThrow(
      'Invalid schema: auth',
    );
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
