// @vitest-environment node
// The endpoint's answers over fakes: routes and methods, CORS on every answer, the body limit,
// bots answered like accepted events without storage being asked, storage's answers mapped to the
// contract's statuses, and a 503 when storage is away. tests/endpoint/analytics-collect.test.ts
// runs the same through the local stack and Postgres.
import { describe, expect, it } from 'vitest';
import { handleRequest, type AnalyticsDeps } from './handler.ts';
import type { CollectInput, CollectResult } from './model.ts';

const SITE = '6f1c2d3e-4b5a-4c6d-8e7f-0123456789ab';
const URL_ = 'https://project.supabase.co/functions/v1/analytics/collect';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const event = {
  s: SITE,
  n: 'pageview',
  u: 'https://example.com/a?utm_source=x',
  r: '',
  w: 400,
  z: 'Asia/Tokyo',
};

function fakes(answer: CollectResult | Error = { status: 'accepted', entry: true }) {
  const calls: CollectInput[] = [];
  const deps: AnalyticsDeps = {
    async collect(input) {
      calls.push(input);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    parseAgent: () => ({
      browser: { name: 'Chrome' },
      os: { name: 'Windows' },
      platform: { type: 'desktop' },
    }),
    log: () => undefined,
  };
  return { deps, calls };
}

const post = (body: string, headers: Record<string, string> = {}, url = URL_) =>
  new Request(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'text/plain',
      'user-agent': CHROME,
      'x-forwarded-for': '203.0.113.7',
      ...headers,
    },
  });

describe('analytics endpoint', () => {
  it('stores a valid event with the client and agent, and answers 202 with no body', async () => {
    const { deps, calls } = fakes();
    const res = await handleRequest(post(JSON.stringify(event)), deps);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      siteId: SITE,
      host: 'example.com',
      path: '/a',
      utmSource: 'x',
      screen: 'mobile',
      country: 'JP',
      browser: 'Chrome',
      os: 'Windows',
      device: 'desktop',
      ip: '203.0.113.7',
      clientKey: '203.0.113.7',
      userAgent: CHROME,
    });
  });

  it('counts an IPv6 client by its /64', async () => {
    const { deps, calls } = fakes();
    await handleRequest(
      post(JSON.stringify(event), { 'x-forwarded-for': '2001:db8:1:2:3:4:5:6' }),
      deps,
    );
    expect(calls[0].clientKey).toBe('2001:db8:1:2::/64');
  });

  it('answers preflights, refuses other methods and other paths', async () => {
    const { deps } = fakes();
    const pre = await handleRequest(new Request(URL_, { method: 'OPTIONS' }), deps);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')).toContain('content-type');
    const get = await handleRequest(new Request(URL_), deps);
    expect(get.status).toBe(405);
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    const other = await handleRequest(post('{}', {}, URL_.replace('collect', 'other')), deps);
    expect(other.status).toBe(404);
  });

  it('refuses bodies over 2048 bytes with 413, declared or not', async () => {
    const { deps, calls } = fakes();
    const big = JSON.stringify({ ...event, p: { k: 'x'.repeat(2100) } });
    expect((await handleRequest(post(big), deps)).status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const undeclared = new Request(URL_, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME },
      duplex: 'half',
    } as RequestInit);
    expect((await handleRequest(undeclared, deps)).status).toBe(413);
    expect(calls).toHaveLength(0);
  });

  it('refuses malformed events with 400 invalid_event', async () => {
    const { deps, calls } = fakes();
    for (const body of ['nope', JSON.stringify({ ...event, u: 'ftp://example.com/' })]) {
      const res = await handleRequest(post(body), deps);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_event', error: expect.any(String) });
    }
    const form = await handleRequest(
      post(JSON.stringify(event), { 'content-type': 'application/x-www-form-urlencoded' }),
      deps,
    );
    expect(form.status).toBe(400);
    expect(calls).toHaveLength(0);
  });

  it('answers bots 202 without storing anything', async () => {
    const { deps, calls } = fakes();
    for (const ua of ['curl/8.5.0', '', 'Mozilla/5.0 (compatible; Googlebot/2.1)']) {
      const res = await handleRequest(post(JSON.stringify(event), { 'user-agent': ua }), deps);
      expect(res.status).toBe(202);
    }
    expect(calls).toHaveLength(0);
  });

  it.each([
    [{ status: 'site_not_found' } as const, 404, 'site_not_found'],
    [{ status: 'foreign_host' } as const, 403, 'foreign_host'],
    [{ status: 'rate_limited', retryAfter: 42 } as const, 429, 'rate_limited'],
    [{ status: 'account_limit', retryAfter: 42 } as const, 429, 'account_limit'],
  ])("storage's %o is a %i", async (answer, status, code) => {
    const { deps } = fakes(answer);
    const res = await handleRequest(post(JSON.stringify(event)), deps);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ code });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    if (status === 429) expect(res.headers.get('retry-after')).toBe('42');
  });

  it('answers 503 with Retry-After when storage is away', async () => {
    const { deps } = fakes(new Error('connect ECONNREFUSED'));
    const res = await handleRequest(post(JSON.stringify(event)), deps);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
