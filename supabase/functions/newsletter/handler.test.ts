// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { NEWSLETTER } from '../_shared/limits.ts';
import { handleRequest, routeOf, type NewsletterDeps } from './handler.ts';
import type {
  ListSignupAttempt,
  ListSignupGate,
  ListSignupInput,
  ListSignupResult,
  ListsDeps,
} from './model.ts';

const FN = 'https://project.test/functions/v1/newsletter';
const TOKEN_A = 'A'.repeat(43);
const TOKEN_B = 'b'.repeat(42) + '_';
const SITE_LIST = '3f0c9f0e-6a4b-4c7e-9d8a-0b1c2d3e4f50';

function fakeDeps(overrides: Partial<NewsletterDeps> = {}, lists: Partial<ListsDeps> = {}) {
  const signups: ListSignupInput[] = [];
  const attempts: ListSignupAttempt[] = [];
  const calls = { confirm: [] as string[], unsubscribe: [] as string[], deliver: 0 };
  let gate: ListSignupGate = { status: 'ok', listId: SITE_LIST, captcha: null };
  let result: ListSignupResult = { status: 'ok' };
  let tokens = 0;
  const deps: NewsletterDeps = {
    newToken: () => `token-${++tokens}`,
    deliverSoon: () => void calls.deliver++,
    functionUrl: FN,
    siteUrl: 'https://site.test/',
    log: () => undefined,
    // The footer signs up to the site's list through the owners' lists' machinery.
    lists: {
      attempt: async (input) => {
        attempts.push(input);
        return gate;
      },
      checkCaptcha: async () => ({ ok: true }),
      subscribe: async (input) => {
        signups.push(input);
        return result;
      },
      confirm: async (token) => {
        calls.confirm.push(token);
        return token === TOKEN_A
          ? { status: 'confirmed', listName: 'Site news' }
          : { status: 'invalid' };
      },
      unsubscribeToken: async (token) => {
        calls.unsubscribe.push(token);
        return token === TOKEN_B
          ? { status: 'unsubscribed', listName: 'Site news' }
          : { status: 'invalid' };
      },
      unsubscribe: async () => ({ status: 'invalid' }),
      clientHash: async (req) => `hash(${req.headers.get('x-forwarded-for') ?? ''})`,
      linkSecret: 'secret',
      ...lists,
    },
    // A campaign's test has tests of its own (campaign-test.test.ts).
    campaignTest: {
      userOf: async () => null,
      loadCampaign: async () => null,
      queueTest: async () => ({ status: 'not_found' }),
      renderMarkdown: (markdown) => markdown,
      siteUrl: null,
      deliverSoon: () => undefined,
      log: () => undefined,
    },
    ...overrides,
  };
  return {
    deps,
    signups,
    attempts,
    calls,
    setGate: (g: ListSignupGate) => (gate = g),
    setResult: (r: ListSignupResult) => (result = r),
  };
}

const signup = (body: BodyInit | null, headers: Record<string, string> = {}, method = 'POST') =>
  new Request(`${FN}`, {
    method,
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

const link = (action: string, token: string | null, method = 'GET') =>
  new Request(`${FN}/${action}${token === null ? '' : `?token=${encodeURIComponent(token)}`}`, {
    method,
  });

describe('routeOf', () => {
  it('finds the route after the function name, with or without the platform prefix', () => {
    expect(routeOf('/newsletter')).toBe('');
    expect(routeOf('/newsletter/')).toBe('');
    expect(routeOf('/functions/v1/newsletter/confirm')).toBe('confirm');
    expect(routeOf('/newsletter/unsubscribe/')).toBe('unsubscribe');
    expect(routeOf('/newsletter/a/b')).toBeNull();
    expect(routeOf('/forms/x')).toBeNull();
  });
});

describe('sign-up', () => {
  it('answers 202 {ok:true}, signs one normalised address up to the site list and starts delivery', async () => {
    const { deps, signups, attempts, calls } = fakeDeps();
    const res = await handleRequest(
      signup(JSON.stringify({ email: '  Ada@Example.COM ' }), { 'x-forwarded-for': '203.0.113.9' }),
      deps,
    );
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-range')).toBeNull();
    // The site's list (none named, so no origin is compared), the client counted first.
    expect(attempts).toEqual([{ listId: null, origin: null, client: 'hash(203.0.113.9)' }]);
    expect(signups).toEqual([
      {
        listId: SITE_LIST,
        email: 'ada@example.com',
        name: null,
        confirmToken: 'token-1',
        linkPrefix: 'https://site.test/newsletter/confirm?list=1&token=',
      },
    ]);
    expect(calls.deliver).toBe(1);
  });

  it('answers 503 not_configured while no list is the site’s, storing nothing', async () => {
    const { deps, signups, setGate, setResult } = fakeDeps();
    setGate({ status: 'not_found' });
    const res = await handleRequest(signup(JSON.stringify({ email: 'a@example.com' })), deps);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'not_configured' });
    expect(signups).toEqual([]);
    // Deleted between the two steps.
    setGate({ status: 'ok', listId: SITE_LIST, captcha: null });
    setResult({ status: 'not_found' });
    const gone = await handleRequest(signup(JSON.stringify({ email: 'a@example.com' })), deps);
    expect(gone.status).toBe(503);
  });

  it('refuses while the site list asks for a CAPTCHA the footer cannot show', async () => {
    const { deps, signups, setGate } = fakeDeps();
    setGate({
      status: 'ok',
      listId: SITE_LIST,
      captcha: { provider: 'turnstile', secret: 's' },
    });
    const res = await handleRequest(signup(JSON.stringify({ email: 'a@example.com' })), deps);
    expect(res.status).toBe(403);
    expect(signups).toEqual([]);
  });

  it('takes a urlencoded body with the one field email', async () => {
    const { deps, signups } = fakeDeps();
    const res = await handleRequest(
      signup('email=ada%40example.com', { 'content-type': 'application/x-www-form-urlencoded' }),
      deps,
    );
    expect(res.status).toBe(202);
    expect(signups.map((s) => s.email)).toEqual(['ada@example.com']);
  });

  it.each([
    ['an array of addresses', JSON.stringify(['a@example.com', 'b@example.com'])],
    ['an array in the field', JSON.stringify({ email: ['a@example.com', 'b@example.com'] })],
    ['a second field', JSON.stringify({ email: 'a@example.com', name: 'Ada' })],
    ['another field only', JSON.stringify({ mail: 'a@example.com' })],
    ['a number', JSON.stringify({ email: 42 })],
    ['null', 'null'],
    ['broken JSON', '{"email":'],
  ])('refuses %s with 400 and stores nothing', async (_, body) => {
    const { deps, signups } = fakeDeps();
    const res = await handleRequest(signup(body), deps);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, code: 'invalid_body' });
    expect(signups).toEqual([]);
  });

  it('refuses repeated urlencoded fields', async () => {
    const { deps, signups } = fakeDeps();
    const res = await handleRequest(
      signup('email=a%40example.com&email=b%40example.com', {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      deps,
    );
    expect(res.status).toBe(400);
    expect(signups).toEqual([]);
  });

  it.each(['', 'not-an-email', 'a@b', 'a b@example.com', `${'x'.repeat(310)}@example.com`])(
    'refuses the address %j with the spec text',
    async (email) => {
      const { deps, signups } = fakeDeps();
      const res = await handleRequest(signup(JSON.stringify({ email })), deps);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        ok: false,
        code: 'invalid_email',
        error: 'Please enter a valid email.',
      });
      expect(signups).toEqual([]);
    },
  );

  it('refuses a body larger than the limit, declared or not', async () => {
    const { deps, signups } = fakeDeps();
    const many = JSON.stringify({
      email: Array.from({ length: 5000 }, (_, i) => `p${i}@example.com`),
    });
    const declared = await handleRequest(
      signup(many, { 'content-length': String(many.length) }),
      deps,
    );
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(many));
        c.close();
      },
    });
    const streamed = await handleRequest(
      new Request(FN, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
      deps,
    );
    expect(streamed.status).toBe(413);
    expect(many.length).toBeGreaterThan(NEWSLETTER.maxBodyBytes);
    expect(signups).toEqual([]);
  });

  it('refuses other content types with 415', async () => {
    const { deps } = fakeDeps();
    const res = await handleRequest(
      signup('email=a@example.com', { 'content-type': 'text/plain' }),
      deps,
    );
    expect(res.status).toBe(415);
  });

  it('answers 429 with Retry-After when the client is over its limit, and sends nothing', async () => {
    const { deps, calls, signups, setGate } = fakeDeps();
    setGate({ status: 'rate_limited', retryAfter: 12.2 });
    const res = await handleRequest(signup(JSON.stringify({ email: 'a@example.com' })), deps);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('13');
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(calls.deliver).toBe(0);
    expect(signups).toEqual([]);
  });

  it('answers 503 when storage fails', async () => {
    for (const broken of ['attempt', 'subscribe'] as const) {
      const { deps } = fakeDeps({}, { [broken]: () => Promise.reject(new Error('down')) });
      const res = await handleRequest(signup(JSON.stringify({ email: 'a@example.com' })), deps);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'storage_failed' });
    }
  });

  it('answers the CORS preflight of supabase-js', async () => {
    const { deps } = fakeDeps();
    const res = await handleRequest(new Request(FN, { method: 'OPTIONS' }), deps);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('apikey');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('refuses other methods and paths', async () => {
    const { deps } = fakeDeps();
    const get = await handleRequest(new Request(FN), deps);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await handleRequest(new Request(`${FN}/other`), deps)).status).toBe(404);
  });
});

describe('links', () => {
  const post = (action: string, body: BodyInit | null, query = '', type = 'application/json') =>
    new Request(`${FN}/${action}${query}`, {
      method: 'POST',
      body,
      headers: { 'content-type': type },
    });

  it('links the e-mail to the site’s confirm page, or to the function itself without a site', async () => {
    const withSite = fakeDeps();
    await handleRequest(signup(JSON.stringify({ email: 'a@example.com' })), withSite.deps);
    expect(withSite.signups[0]!.linkPrefix).toBe(
      'https://site.test/newsletter/confirm?list=1&token=',
    );
    const bare = fakeDeps({ siteUrl: null });
    await handleRequest(signup(JSON.stringify({ email: 'a@example.com' })), bare.deps);
    expect(bare.signups[0]!.linkPrefix).toBe(`${FN}/lists/confirm?token=`);
  });

  it('confirms on POST with the token in JSON, and says so in JSON', async () => {
    const { deps, calls } = fakeDeps();
    const res = await handleRequest(post('confirm', JSON.stringify({ token: TOKEN_A })), deps);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, status: 'confirmed' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(calls.confirm).toEqual([TOKEN_A]);
  });

  it('answers unknown, used and malformed tokens with one 404', async () => {
    const { deps, calls } = fakeDeps();
    const bodies = [
      { token: 'C'.repeat(43) },
      { token: 'short' },
      { token: `${TOKEN_A}x` },
      { token: 42 },
      {},
    ];
    for (const body of bodies) {
      const res = await handleRequest(post('confirm', JSON.stringify(body)), deps);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ ok: false, code: 'invalid_link' });
    }
    // Only the well-formed token was looked up.
    expect(calls.confirm).toEqual(['C'.repeat(43)]);
  });

  it('unsubscribes on POST, also as an RFC 8058 one-click with the token in the query', async () => {
    const { deps, calls } = fakeDeps();
    const json = await handleRequest(post('unsubscribe', JSON.stringify({ token: TOKEN_B })), deps);
    expect(await json.json()).toEqual({ ok: true, status: 'unsubscribed' });
    const oneClick = await handleRequest(
      post(
        'unsubscribe',
        'List-Unsubscribe=One-Click',
        `?token=${TOKEN_B}`,
        'application/x-www-form-urlencoded',
      ),
      deps,
    );
    expect(oneClick.status).toBe(200);
    expect(calls.unsubscribe).toEqual([TOKEN_B, TOKEN_B]);
  });

  it('changes nothing on GET when the site can ask first: it redirects to the site page', async () => {
    const { deps, calls } = fakeDeps();
    for (const action of ['confirm', 'unsubscribe'] as const) {
      const res = await handleRequest(link(action, TOKEN_A), deps);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(
        `https://site.test/newsletter/${action}?token=${TOKEN_A}`,
      );
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect(calls).toMatchObject({ confirm: [], unsubscribe: [] });
  });

  it('changes nothing on HEAD (link checkers)', async () => {
    const { deps, calls } = fakeDeps({ siteUrl: null });
    const res = await handleRequest(link('confirm', TOKEN_A, 'HEAD'), deps);
    expect(res.status).toBe(405);
    expect(calls.confirm).toEqual([]);
  });

  it('acts on GET and answers in plain text when no site is configured', async () => {
    const { deps } = fakeDeps({ siteUrl: null });
    const ok = await handleRequest(link('confirm', TOKEN_A), deps);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await ok.text()).toBe('Your subscription is confirmed.\n');
    const bad = await handleRequest(link('unsubscribe', TOKEN_A), deps);
    expect(bad.status).toBe(404);
    expect(await bad.text()).toMatch(/not valid/);
  });

  it('answers the preflight of the site page’s request', async () => {
    const { deps } = fakeDeps();
    const res = await handleRequest(new Request(`${FN}/confirm`, { method: 'OPTIONS' }), deps);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('answers 503 when storage fails', async () => {
    const down = { confirm: () => Promise.reject(new Error('down')) };
    const { deps } = fakeDeps({}, down);
    const res = await handleRequest(post('confirm', JSON.stringify({ token: TOKEN_A })), deps);
    expect(res.status).toBe(503);
    const bare = fakeDeps({ siteUrl: null }, down);
    expect((await handleRequest(link('confirm', TOKEN_A), bare.deps)).status).toBe(503);
  });
});
