// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ERRORS } from './errors.ts';
import {
  EMPTY_SUBMISSION,
  MAX_RETRY_SECONDS,
  MAX_SHOWN_FIELDS,
  readRefusalParams,
  refusalPageCode,
  refusalPageUrl,
} from './refusal-page.ts';

const SITE = 'https://tinyback.example/';

describe('the refusal page address', () => {
  it('carries the code, the wait and the field names, under SITE_URL/form-error', () => {
    expect(refusalPageUrl(SITE, ERRORS.rateLimited(41.2))).toBe(
      'https://tinyback.example/form-error?code=rate_limited&retry=42',
    );
    expect(
      refusalPageUrl(
        SITE,
        ERRORS.invalidFields({
          email: 'Enter a valid e-mail address.',
          message: 'At most 10 characters.',
        }),
      ),
    ).toBe('https://tinyback.example/form-error?code=invalid_fields&fields=email%2Cmessage');
    expect(refusalPageUrl(SITE, ERRORS.formNotFound())).toBe(
      'https://tinyback.example/form-error?code=form_not_found',
    );
  });

  it('tells an empty submission apart from invalid fields', () => {
    expect(refusalPageCode(ERRORS.emptySubmission())).toBe(EMPTY_SUBMISSION);
    expect(refusalPageCode(ERRORS.invalidFields({ email: 'x' }))).toBe('invalid_fields');
    expect(refusalPageUrl(SITE, ERRORS.emptySubmission())).toContain(`code=${EMPTY_SUBMISSION}`);
  });

  it('never carries what a visitor typed: only name-shaped field names, and few of them', () => {
    const url = new URL(
      refusalPageUrl(
        SITE,
        ERRORS.invalidFields({
          'Your account is locked, call +1 555 0100': 'x',
          'a\u202Eb': 'x',
          '<script>': 'x',
          'items[]': 'x',
          Nachricht: 'x',
          ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, 'x'])),
        }),
      ),
    );
    const names = url.searchParams.get('fields')!.split(',');
    expect(names.slice(0, 2)).toEqual(['items[]', 'Nachricht']);
    expect(names).toHaveLength(MAX_SHOWN_FIELDS + 1);
    expect(url.search).not.toMatch(/call|script|%E2%80%AE/i);
  });
});

describe('the page reading its address', () => {
  const read = (query: string) => readRefusalParams(new URLSearchParams(query));

  it('reads what the function writes', () => {
    expect(read('code=rate_limited&retry=42')).toEqual({
      code: 'rate_limited',
      retry: 42,
      fields: [],
      moreFields: false,
    });
    expect(read('code=invalid_fields&fields=email,items[],Nachricht')).toMatchObject({
      code: 'invalid_fields',
      fields: ['email', 'items[]', 'Nachricht'],
    });
  });

  it('keeps only values of those shapes from a crafted link', () => {
    expect(
      read(
        'code=<b>hi</b>&retry=-3&fields=' +
          encodeURIComponent('Call us now,email,email,javascript:alert(1),a b'),
      ),
    ).toEqual({ code: null, retry: null, fields: ['email'], moreFields: false });
    expect(read('retry=1e9').retry).toBeNull();
    expect(read(`retry=${MAX_RETRY_SECONDS + 1}`).retry).toBeNull();
    expect(read(`retry=${MAX_RETRY_SECONDS}`).retry).toBe(MAX_RETRY_SECONDS);
    expect(read('retry=3.5').retry).toBeNull();
    expect(read('fields=a,b,c,d,e,f,g')).toMatchObject({
      fields: ['a', 'b', 'c', 'd', 'e'],
      moreFields: true,
    });
  });
});
