// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ERRORS } from './errors.ts';
import { errorResponse, preflightResponse, successResponse, wantsJson } from './responses.ts';

describe('responses', () => {
  it('wants JSON when Accept says so or the body is JSON', () => {
    expect(wantsJson(new Headers({ accept: 'application/json' }))).toBe(true);
    expect(wantsJson(new Headers({ 'content-type': 'application/json' }))).toBe(true);
    expect(wantsJson(new Headers({ accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }))).toBe(
      false,
    );
  });

  it('redirects browser posts with 303 and answers JSON clients with CORS', async () => {
    const redirect = successResponse({
      id: 'e1',
      json: false,
      redirectTo: 'https://site.test/ok',
      corsOrigin: 'https://site.test',
    });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe('https://site.test/ok');
    expect(await redirect.text()).toBe('');
    const json = successResponse({
      id: 'e1',
      json: true,
      redirectTo: '',
      corsOrigin: 'https://site.test',
    });
    expect(json.status).toBe(200);
    expect(json.headers.get('access-control-allow-origin')).toBe('https://site.test');
    expect(await json.json()).toEqual({ ok: true, id: 'e1' });
  });

  it('answers errors as JSON or plain text, never HTML', async () => {
    const j = errorResponse(ERRORS.rateLimited(42), {
      json: true,
      corsOrigin: 'https://site.test',
    });
    expect(j.status).toBe(429);
    expect(j.headers.get('retry-after')).toBe('42');
    expect(await j.json()).toEqual({
      ok: false,
      error: expect.any(String),
      code: 'rate_limited',
      fields: {},
    });
    const t = errorResponse(ERRORS.invalidFields({ email: 'Enter a valid e-mail address.' }), {
      json: false,
      corsOrigin: null,
    });
    expect(t.status).toBe(422);
    expect(t.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await t.text()).toContain('email: Enter a valid e-mail address.');
    expect(
      errorResponse(ERRORS.methodNotAllowed(), { json: false, corsOrigin: null }).headers.get(
        'allow',
      ),
    ).toBe('POST, OPTIONS');
    expect(
      errorResponse(ERRORS.storageFailed(), { json: true, corsOrigin: null }).headers.get(
        'retry-after',
      ),
    ).toBe('5');
  });

  it('answers preflight for the form origin', () => {
    const r = preflightResponse('https://site.test');
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://site.test');
    expect(r.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
