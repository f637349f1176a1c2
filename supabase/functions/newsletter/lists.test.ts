// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { listUnsubscribeUrl, signUnsubscribe } from '../_shared/list-unsubscribe.ts';
import { handleRequest, type NewsletterDeps } from './handler.ts';
import { listRouteOf } from './lists.ts';
import type {
  ListCaptchaCheck,
  ListSignupAttempt,
  ListSignupGate,
  ListSignupInput,
  ListSignupResult,
  ListsDeps,
} from './model.ts';
import type { CaptchaVerdict } from '../_shared/captcha.ts';

const FUNCTIONS = 'https://project.test/functions/v1';
const FN = `${FUNCTIONS}/newsletter`;
const LIST = '3f0c9f0e-6a4b-4c7e-9d8a-0b1c2d3e4f50';
const SUBSCRIBER = '7d6c5b4a-3928-4716-a5b4-c3d2e1f00112';
const CAMPAIGN = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
const SECRET = 'derived:service-key';
const ORIGIN = 'https://shop.example';
const TOKEN = 'T'.repeat(43);

function fakeDeps(overrides: Partial<NewsletterDeps> = {}, lists: Partial<ListsDeps> = {}) {
  const signups: ListSignupInput[] = [];
  const attempts: ListSignupAttempt[] = [];
  const captchaChecks: ListCaptchaCheck[] = [];
  let gate: ListSignupGate = { status: 'ok', listId: LIST, captcha: null };
  let verdict: CaptchaVerdict = { ok: true };
  const calls = {
    confirm: [] as string[],
    unsubscribe: [] as [string, string | null][],
    deliver: 0,
  };
  let result: ListSignupResult = { status: 'ok' };
  const deps: NewsletterDeps = {
    newToken: () => TOKEN,
    deliverSoon: () => void calls.deliver++,
    functionUrl: FN,
    siteUrl: 'https://site.test/',
    log: () => undefined,
    lists: {
      attempt: async (input) => {
        attempts.push(input);
        return gate;
      },
      checkCaptcha: async (input) => {
        captchaChecks.push(input);
        return verdict;
      },
      subscribe: async (input) => {
        signups.push(input);
        return result;
      },
      confirm: async (token) => {
        calls.confirm.push(token);
        return token === TOKEN
          ? { status: 'confirmed', listName: 'Shop news' }
          : { status: 'invalid' };
      },
      unsubscribeToken: async () => ({ status: 'invalid' }),
      unsubscribe: async (subscriberId, campaignId) => {
        calls.unsubscribe.push([subscriberId, campaignId]);
        return { status: 'unsubscribed', listName: 'Shop news' };
      },
      clientHash: async (req) => `list-hash(${req.headers.get('x-forwarded-for') ?? ''})`,
      linkSecret: SECRET,
      ...lists,
    },
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
    captchaChecks,
    calls,
    setResult: (r: ListSignupResult) => (result = r),
    setGate: (g: ListSignupGate) => (gate = g),
    setVerdict: (v: CaptchaVerdict) => (verdict = v),
  };
}

const post = (path: string, body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request(`${FN}${path}`, { method: 'POST', body, headers });

const formPost = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(`/lists/${LIST}`, new URLSearchParams(fields).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
    origin: ORIGIN,
    ...headers,
  });

const fetchPost = (body: unknown, headers: Record<string, string> = {}) =>
  post(`/lists/${LIST}`, JSON.stringify(body), {
    'content-type': 'application/json',
    origin: ORIGIN,
    ...headers,
  });

describe('listRouteOf', () => {
  it('tells the owners’ routes apart, with or without the platform prefix', () => {
    expect(listRouteOf(`/newsletter/lists/${LIST}`)).toEqual({ route: 'signup', listId: LIST });
    expect(listRouteOf(`/functions/v1/newsletter/lists/${LIST}/`)).toEqual({
      route: 'signup',
      listId: LIST,
    });
    expect(listRouteOf('/newsletter/lists/confirm')).toEqual({ route: 'confirm' });
    expect(listRouteOf(`/newsletter/u/${SUBSCRIBER}/-/sig`)).toEqual({
      route: 'unsubscribe',
      subscriberId: SUBSCRIBER,
      campaignId: '-',
      signature: 'sig',
    });
    expect(listRouteOf('/newsletter')).toBeNull();
    expect(listRouteOf('/newsletter/confirm')).toBeNull();
    expect(listRouteOf(`/newsletter/u/${SUBSCRIBER}/-`)).toBeNull();
    expect(listRouteOf(`/forms/lists/${LIST}`)).toBeNull();
  });
});

describe('a list’s signup form', () => {
  it('takes an HTML form post: the origin, the hashed client, a fresh token, then 303 to the site', async () => {
    const { deps, signups, attempts, calls } = fakeDeps();
    const res = await handleRequest(
      formPost(
        { email: ' Ada@Example.COM ', name: ' Ada\tLovelace ', _gotcha: '' },
        {
          'x-forwarded-for': '203.0.113.9',
        },
      ),
      deps,
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://site.test/newsletter/check-inbox');
    expect(attempts).toEqual([{ listId: LIST, origin: ORIGIN, client: 'list-hash(203.0.113.9)' }]);
    expect(signups).toEqual([
      {
        listId: LIST,
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        confirmToken: TOKEN,
        linkPrefix: 'https://site.test/newsletter/confirm?list=1&token=',
      },
    ]);
    // The confirmation leaves at once.
    expect(calls.deliver).toBe(1);
  });

  it('takes multipart, and answers fetch with 202 {ok:true} and CORS for the page', async () => {
    const { deps, signups } = fakeDeps();
    const form = new FormData();
    form.set('email', 'bo@example.com');
    const multipart = await handleRequest(
      post(`/lists/${LIST}`, form, { origin: ORIGIN, accept: 'application/json' }),
      deps,
    );
    expect(multipart.status).toBe(202);
    const res = await handleRequest(fetchPost({ email: 'cy@example.com', name: null }), deps);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(signups.map((s) => [s.email, s.name])).toEqual([
      ['bo@example.com', null],
      ['cy@example.com', null],
    ]);
  });

  it('passes the Referer’s origin when there is no Origin header', async () => {
    const { deps, attempts } = fakeDeps();
    // An empty Origin is a claim of none: the Referer does not stand in for it.
    await handleRequest(
      formPost({ email: 'a@example.com' }, { origin: '', referer: `${ORIGIN}/signup?x=1` }),
      deps,
    );
    const noOrigin = new Request(`${FN}/lists/${LIST}`, {
      method: 'POST',
      body: 'email=a%40example.com',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `${ORIGIN}/signup?x=1`,
      },
    });
    await handleRequest(noOrigin, deps);
    expect(attempts.map((s) => s.origin)).toEqual([null, ORIGIN]);
  });

  it('answers a filled honeypot as a success and stores nothing', async () => {
    const { deps, signups, attempts, calls } = fakeDeps();
    const html = await handleRequest(formPost({ email: 'bot@example.com', _gotcha: 'x' }), deps);
    expect(html.status).toBe(303);
    const json = await handleRequest(fetchPost({ email: 'not an address', _gotcha: 'buy' }), deps);
    expect(json.status).toBe(202);
    expect(signups).toEqual([]);
    expect(attempts).toEqual([]);
    expect(calls.deliver).toBe(0);
  });

  it('answers each refusal of the database with its status, CORS only for the list’s own site', async () => {
    const { deps, setResult, setGate, signups } = fakeDeps();
    setGate({ status: 'foreign_origin' });
    const foreign = await handleRequest(fetchPost({ email: 'a@example.com' }), deps);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ ok: false, code: 'foreign_origin' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    setGate({ status: 'not_found' });
    expect((await handleRequest(fetchPost({ email: 'a@example.com' }), deps)).status).toBe(404);
    setGate({ status: 'rate_limited', retryAfter: 60 });
    const limited = await handleRequest(fetchPost({ email: 'a@example.com' }), deps);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(limited.headers.get('access-control-expose-headers')).toBe('Retry-After');
    // Refused before the address is looked at.
    expect(signups).toEqual([]);

    setGate({ status: 'ok', listId: LIST, captcha: null });
    setResult({ status: 'not_found' });
    expect((await handleRequest(fetchPost({ email: 'a@example.com' }), deps)).status).toBe(404);

    setResult({ status: 'invalid', field: 'email', message: 'Enter a valid e-mail address.' });
    const invalid = await handleRequest(fetchPost({ email: 'a@example.com' }), deps);
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      ok: false,
      code: 'invalid',
      field: 'email',
      error: 'Enter a valid e-mail address.',
    });
  });

  it('answers a browser’s refused post in plain text with the status', async () => {
    const { deps, setGate } = fakeDeps();
    setGate({ status: 'rate_limited', retryAfter: 3600 });
    const res = await handleRequest(formPost({ email: 'a@example.com' }), deps);
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(await res.text()).toBe('Too many signups from your network. Try again later.\n');
  });

  it('refuses an invalid address or name with 422 and the field, without asking storage', async () => {
    const { deps, signups } = fakeDeps();
    const email = await handleRequest(fetchPost({ email: 'a..b@example.com' }), deps);
    expect(email.status).toBe(422);
    expect(await email.json()).toMatchObject({ field: 'email' });
    const name = await handleRequest(
      fetchPost({ email: 'a@example.com', name: 'n'.repeat(101) }),
      deps,
    );
    expect(name.status).toBe(422);
    expect(await name.json()).toMatchObject({ field: 'name' });
    expect(signups).toEqual([]);
  });

  it('checks the list’s CAPTCHA after counting the client, and signs up only a solved one', async () => {
    const { deps, signups, attempts, captchaChecks, setGate, setVerdict } = fakeDeps();
    setGate({ status: 'ok', listId: LIST, captcha: { provider: 'turnstile', secret: 'sekret' } });

    setVerdict({ ok: false, kind: 'missing', detail: 'no token' });
    const missing = await handleRequest(fetchPost({ email: 'a@example.com' }), deps);
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ code: 'captcha' });
    expect(captchaChecks.at(-1)).toMatchObject({ token: null, secret: 'sekret', origin: ORIGIN });

    setVerdict({ ok: false, kind: 'unavailable', detail: 'timeout' });
    const down = await handleRequest(
      fetchPost({ email: 'a@example.com', 'cf-turnstile-response': ' tok-1 ' }),
      deps,
    );
    expect(down.status).toBe(503);
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);

    setVerdict({ ok: false, kind: 'misconfigured', detail: 'invalid-input-secret' });
    const broken = await handleRequest(formPost({ email: 'a@example.com' }), deps);
    expect(broken.status).toBe(500);
    expect(await broken.text()).toMatch(/CAPTCHA is not set up correctly/);
    expect(signups).toEqual([]);

    setVerdict({ ok: true });
    const solved = await handleRequest(
      fetchPost({ email: 'a@example.com', 'cf-turnstile-response': 'tok-2' }),
      deps,
    );
    expect(solved.status).toBe(202);
    expect(captchaChecks.at(-1)).toMatchObject({
      provider: 'turnstile',
      token: 'tok-2',
      listId: LIST,
    });
    expect(signups.map((s) => s.email)).toEqual(['a@example.com']);
    // Every request was counted first, whatever the CAPTCHA said.
    expect(attempts).toHaveLength(4);
  });

  it('reads only the token field of the list’s provider', async () => {
    const { deps, captchaChecks, setGate } = fakeDeps();
    setGate({ status: 'ok', listId: LIST, captcha: { provider: 'hcaptcha', secret: 's' } });
    await handleRequest(
      fetchPost({
        email: 'a@example.com',
        'cf-turnstile-response': 'wrong',
        'h-captcha-response': 'right',
      }),
      deps,
    );
    expect(captchaChecks.map((c) => c.token)).toEqual(['right']);
  });

  it('answers 503 with Retry-After when the database is away', async () => {
    const { deps } = fakeDeps(
      {},
      {
        subscribe: async () => {
          throw new Error('connection refused');
        },
      },
    );
    const res = await handleRequest(fetchPost({ email: 'a@example.com' }), deps);
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses bodies it cannot read, other types, other methods and ids that are none', async () => {
    const { deps, signups } = fakeDeps();
    const cases: [Request, number][] = [
      [fetchPost('x'.repeat(20_000)), 413],
      [post(`/lists/${LIST}`, 'email=a@example.com', { 'content-type': 'text/plain' }), 415],
      [fetchPost([{ email: 'a@example.com' }]), 400],
      [
        post(`/lists/${LIST}`, 'email=a%40example.com&email=b%40example.com', {
          'content-type': 'application/x-www-form-urlencoded',
        }),
        400,
      ],
      [new Request(`${FN}/lists/${LIST}`), 405],
      [
        post('/lists/not-a-uuid', '{"email":"a@example.com"}', {
          'content-type': 'application/json',
        }),
        404,
      ],
    ];
    for (const [req, status] of cases) expect((await handleRequest(req, deps)).status).toBe(status);
    expect(signups).toEqual([]);
  });

  it('answers the CORS preflight for whichever page asks', async () => {
    const { deps } = fakeDeps();
    const res = await handleRequest(
      new Request(`${FN}/lists/${LIST}`, { method: 'OPTIONS', headers: { origin: ORIGIN } }),
      deps,
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('answers in plain text, and links to the function, when there is no site', async () => {
    const { deps, signups } = fakeDeps({ siteUrl: null });
    const res = await handleRequest(formPost({ email: 'a@example.com' }), deps);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^Almost done/);
    expect(signups[0]!.linkPrefix).toBe(`${FN}/lists/confirm?token=`);
  });
});

describe('a list’s confirmation link', () => {
  const confirm = (body: unknown, query = '') =>
    post(`/lists/confirm${query}`, JSON.stringify(body), { 'content-type': 'application/json' });

  it('confirms with the token and names the list', async () => {
    const { deps, calls } = fakeDeps();
    const res = await handleRequest(confirm({ token: TOKEN }), deps);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, listName: 'Shop news' });
    expect(calls.confirm).toEqual([TOKEN]);
    expect((await handleRequest(post(`/lists/confirm?token=${TOKEN}`, null), deps)).status).toBe(
      200,
    );
  });

  it('answers 404 for an unknown or malformed token, 400 without one', async () => {
    const { deps, calls } = fakeDeps();
    expect((await handleRequest(confirm({ token: 'U'.repeat(43) }), deps)).status).toBe(404);
    expect((await handleRequest(confirm({ token: 'short' }), deps)).status).toBe(404);
    expect((await handleRequest(confirm({}), deps)).status).toBe(400);
    expect(calls.confirm).toEqual(['U'.repeat(43)]);
  });

  it('changes nothing on GET: the site’s page, whose button posts', async () => {
    const { deps, calls } = fakeDeps();
    const res = await handleRequest(new Request(`${FN}/lists/confirm?token=${TOKEN}`), deps);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `https://site.test/newsletter/confirm?list=1&token=${TOKEN}`,
    );
    expect(calls.confirm).toEqual([]);
    const head = new Request(`${FN}/lists/confirm?token=${TOKEN}`, { method: 'HEAD' });
    expect((await handleRequest(head, deps)).status).toBe(405);
  });
});

describe('one-click unsubscribe', () => {
  const linkPath = async (campaign: string | null) =>
    new URL(await listUnsubscribeUrl(FUNCTIONS, SUBSCRIBER, campaign, SECRET)).pathname;
  const oneClick = (path: string, headers: Record<string, string> = {}) =>
    new Request(`https://project.test${path}`, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  it('unsubscribes on RFC 8058’s POST and answers 200 in plain text, never a redirect', async () => {
    const { deps, calls } = fakeDeps();
    const res = await handleRequest(oneClick(await linkPath(CAMPAIGN)), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toBe('You are unsubscribed.\n');
    expect(calls.unsubscribe).toEqual([[SUBSCRIBER, CAMPAIGN]]);
  });

  it('takes a multipart one-click, and a link of no campaign', async () => {
    const { deps, calls } = fakeDeps();
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const path = await linkPath(null);
    expect(path).toMatch(new RegExp(`/newsletter/u/${SUBSCRIBER}/-/[\\w-]{43}$`));
    const res = await handleRequest(
      new Request(`https://project.test${path}`, { method: 'POST', body: form }),
      deps,
    );
    expect(res.status).toBe(200);
    expect(calls.unsubscribe).toEqual([[SUBSCRIBER, null]]);
  });

  it('answers the site page’s JSON request with the list’s name', async () => {
    const { deps } = fakeDeps();
    const res = await handleRequest(
      oneClick(await linkPath(CAMPAIGN), { 'content-type': 'application/json' }),
      deps,
    );
    expect(await res.json()).toEqual({ ok: true, listName: 'Shop news' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a tampered link (another campaign, subscriber or signature) and changes nothing', async () => {
    const { deps, calls } = fakeDeps();
    const path = await linkPath(CAMPAIGN);
    const other = 'b1b2c3d4-e5f6-4789-8abc-def012345678';
    const signature = path.split('/').pop()!;
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const tampered of [
      path.replace(CAMPAIGN, other),
      path.replace(CAMPAIGN, '-'),
      path.replace(SUBSCRIBER, other),
      path.replace(signature, flipped),
      path.replace(signature, signature.slice(0, 42)),
      path.replace(signature, `${signature}A`),
    ]) {
      const res = await handleRequest(oneClick(tampered), deps);
      expect(res.status, tampered).toBe(403);
    }
    expect(calls.unsubscribe).toEqual([]);
  });

  it('changes nothing on GET: 303 to the site’s page with the same link', async () => {
    const { deps, calls } = fakeDeps();
    const path = await linkPath(CAMPAIGN);
    const res = await handleRequest(new Request(`https://project.test${path}`), deps);
    expect(res.status).toBe(303);
    const signed = await signUnsubscribe(SUBSCRIBER, CAMPAIGN, SECRET);
    expect(res.headers.get('location')).toBe(
      `https://site.test/newsletter/unsubscribe?u=${SUBSCRIBER}&c=${CAMPAIGN}&sig=${signed.signature}`,
    );
    expect(calls.unsubscribe).toEqual([]);
    const head = new Request(`https://project.test${path}`, { method: 'HEAD' });
    expect((await handleRequest(head, deps)).status).toBe(405);
    expect(calls.unsubscribe).toEqual([]);
  });

  it('answers 404 for a subscriber that is gone and 503 when the database is away', async () => {
    const gone = fakeDeps({}, { unsubscribe: async () => ({ status: 'invalid' }) });
    expect((await handleRequest(oneClick(await linkPath(CAMPAIGN)), gone.deps)).status).toBe(404);
    const away = fakeDeps(
      {},
      {
        unsubscribe: async () => {
          throw new Error('down');
        },
      },
    );
    const res = await handleRequest(oneClick(await linkPath(CAMPAIGN)), away.deps);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).not.toBeNull();
  });
});
