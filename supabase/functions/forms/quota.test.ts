// @vitest-environment node
// A post over the form owner's monthly quota: storage refuses it (nothing stored), and the
// endpoint answers 429 `quota_exceeded` with a sentence for the visitor and when to try again.
import { describe, expect, it } from 'vitest';
import { handleRequest, type FormsDeps } from './handler.ts';
import type { AcceptResult } from './model.ts';
import { ERRORS } from './errors.ts';

const FORM_ID = '0b5c6a1e-3f7d-4c2a-9e8b-1d2c3b4a5f60';
const ORIGIN = 'https://site.test';
const RESET_IN = 3 * 86_400 + 17;

function deps(result: AcceptResult): { deps: FormsDeps; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    deps: {
      loadForm: async (id) =>
        id === FORM_ID
          ? {
              id,
              name: 'Contact',
              target_email: 'owner@example.com',
              allowed_origin: ORIGIN,
              redirect_url: null,
            }
          : null,
      accept: async () => result,
      hashIp: async (ip) => `hash(${ip})`,
      sendNow: async (id) => void sent.push(id),
      background: (work) => work,
      deliverDue: async () => ({ claimed: 0, sent: 0, retrying: 0, failed: 0 }),
      isServiceRole: () => false,
      clientIpPolicy: {},
      siteUrl: null,
      newId: () => 'entry-1',
      now: () => new Date('2026-01-01T00:00:00Z'),
      log: () => undefined,
    },
  };
}

const post = (headers: Record<string, string>, body: string) =>
  new Request(`http://fn.test/forms/${FORM_ID}`, {
    method: 'POST',
    body,
    headers: { origin: ORIGIN, ...headers },
  });

describe('a post over the monthly quota', () => {
  it('answers JSON clients 429 quota_exceeded with Retry-After until the count starts again', async () => {
    const { deps: d, sent } = deps({ status: 'quota_exceeded', retryAfter: RESET_IN });
    const res = await handleRequest(
      post({ 'content-type': 'application/json' }, JSON.stringify({ message: 'Hi' })),
      d,
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(RESET_IN));
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await res.json()).toEqual({
      ok: false,
      code: 'quota_exceeded',
      error: ERRORS.quotaExceeded(RESET_IN).error,
      fields: {},
    });
    expect(sent).toEqual([]);
  });

  it('tells a plain client in one sentence that nothing was stored', async () => {
    const { deps: d } = deps({ status: 'quota_exceeded', retryAfter: RESET_IN });
    const res = await handleRequest(
      post({ 'content-type': 'application/x-www-form-urlencoded' }, 'message=Hi'),
      d,
    );
    expect(res.status).toBe(429);
    const text = await res.text();
    expect(text).toContain('was not stored');
    expect(text).toContain("owner's plan");
  });

  it('reads differently from the per-network rate limit', () => {
    const quota = ERRORS.quotaExceeded(60);
    const rate = ERRORS.rateLimited(60);
    expect(quota.status).toBe(rate.status);
    expect(quota.code).not.toBe(rate.code);
    expect(quota.error).not.toBe(rate.error);
  });
});
