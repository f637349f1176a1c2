// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../_shared/limits.ts';
import { MIN_PROXY_SECRET_LENGTH, PROXY_SECRET_HEADER } from '../_shared/client-ip.ts';
import { handleRequest, routeOf, type FormsDeps } from './handler.ts';
import type { AcceptInput, AcceptResult } from './model.ts';

const FORM_ID = '0b5c6a1e-3f7d-4c2a-9e8b-1d2c3b4a5f60';
const ORIGIN = 'https://site.test';

function fakeDeps(overrides: Partial<FormsDeps> = {}, redirectUrl: string | null = null) {
  const accepted: AcceptInput[] = [];
  const sent: string[] = [];
  let acceptResult: AcceptResult | null = null;
  const deps: FormsDeps = {
    loadForm: async (id) =>
      id === FORM_ID
        ? {
            id,
            name: 'Contact',
            target_email: 'owner@example.com',
            allowed_origin: ORIGIN,
            redirect_url: redirectUrl,
          }
        : null,
    accept: async (input) => {
      accepted.push(input);
      return (
        acceptResult ?? {
          status: 'accepted',
          entryId: input.entryId,
          deliveryId: input.notification ? 'd1' : null,
        }
      );
    },
    hashIp: (ip) => `hash(${ip})`,
    sendNow: async (id) => void sent.push(id),
    background: (work) => work,
    deliverDue: async () => ({ claimed: 2, sent: 2, retrying: 0, failed: 0 }),
    isServiceRole: (auth) => auth === 'Bearer service',
    clientIpPolicy: {},
    siteUrl: 'http://app.test/',
    newId: () => 'entry-1',
    now: () => new Date('2026-01-01T00:00:00Z'),
    log: () => undefined,
    ...overrides,
  };
  return { deps, accepted, sent, setAcceptResult: (r: AcceptResult) => (acceptResult = r) };
}

const post = (body: BodyInit, headers: Record<string, string>, path = `/forms/${FORM_ID}`) =>
  new Request(`http://fn.test${path}`, {
    method: 'POST',
    body,
    headers: { origin: ORIGIN, ...headers },
  });
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(new URLSearchParams(fields).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
    ...headers,
  });

describe('routing helpers', () => {
  it('finds the segment after /forms/', () => {
    expect(routeOf(`/forms/${FORM_ID}`)).toBe(FORM_ID);
    expect(routeOf(`/functions/v1/forms/${FORM_ID}/`)).toBe(FORM_ID);
    expect(routeOf('/forms/_deliver')).toBe('_deliver');
    expect(routeOf('/forms')).toBeNull();
    expect(routeOf(`/forms/${FORM_ID}/extra`)).toBeNull();
  });
});

describe('form endpoint handler', () => {
  it('stores a browser post, sends at once and redirects to /thanks', async () => {
    const { deps, accepted, sent } = fakeDeps();
    const res = await handleRequest(
      form(
        { name: 'Ada', email: 'ada@example.com', message: 'Hi', userId: 'u' },
        { 'x-forwarded-for': '1.2.3.4' },
      ),
      deps,
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://app.test/thanks');
    expect(accepted[0]).toMatchObject({
      formId: FORM_ID,
      ipHash: 'hash(1.2.3.4)',
      name: 'Ada',
      isSpam: false,
    });
    expect(accepted[0].notification?.subject).toBe('New submission: Contact');
    expect(sent).toEqual(['d1']);
  });

  it('composes the notification with a link to the message and in the owner’s time zone', async () => {
    const { deps, accepted } = fakeDeps({
      loadForm: async (id) => ({
        id,
        name: 'Contact',
        target_email: 'owner@example.com',
        allowed_origin: ORIGIN,
        redirect_url: null,
        time_zone: 'Asia/Tokyo',
      }),
    });
    await handleRequest(form({ name: 'Ada', email: 'ada@example.com', message: 'Hi' }), deps);
    const text = accepted[0].notification?.text ?? '';
    expect(text).toContain('Received Thu, 1 Jan 2026, 09:00:00 (Asia/Tokyo, UTC+09:00).');
    expect(text).toContain(
      'Open it in your dashboard: http://app.test/dashboard/forms?tab=messages&message=entry-1',
    );
  });

  it('hands storage the fields in the order they were sent, a repeated name once per value', async () => {
    const { deps, accepted } = fakeDeps();
    const body = new URLSearchParams([
      ['zeta', 'last letter'],
      ['email', 'ada@example.com'],
      ['topping', 'olives'],
      ['2', 'numeric name'],
      ['topping', 'basil'],
      ['alpha', 'first letter'],
    ]);
    await handleRequest(
      post(body.toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      }),
      deps,
    );
    expect(accepted[0].fieldOrder).toEqual(['zeta', 'email', 'topping', '2', 'topping', 'alpha']);
    expect(accepted[0].data).toEqual({
      zeta: 'last letter',
      topping: ['olives', 'basil'],
      2: 'numeric name',
      alpha: 'first letter',
    });
  });

  it('answers JSON with CORS and honours _next on the allowed origin only', async () => {
    const { deps } = fakeDeps();
    const res = await handleRequest(
      post(JSON.stringify({ message: 'Hi' }), { 'content-type': 'application/json' }),
      deps,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, id: 'entry-1' });
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const good = await handleRequest(form({ message: 'x', _next: `${ORIGIN}/done` }), deps);
    expect(good.headers.get('location')).toBe(`${ORIGIN}/done`);
    const foreign = await handleRequest(form({ message: 'x', _next: 'https://evil.test/' }), deps);
    expect(foreign.headers.get('location')).toBe('http://app.test/thanks');
  });

  it("sends a browser without a usable _next to the form's thank-you page", async () => {
    const { deps } = fakeDeps({}, 'https://elsewhere.test/merci?src=form');
    const plain = await handleRequest(form({ message: 'x' }), deps);
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('https://elsewhere.test/merci?src=form');
    // A foreign _next is still ignored, now in favour of the form's page.
    const foreign = await handleRequest(form({ message: 'x', _next: 'https://evil.test/' }), deps);
    expect(foreign.headers.get('location')).toBe('https://elsewhere.test/merci?src=form');
    // A valid _next wins over the form's page.
    const next = await handleRequest(form({ message: 'x', _next: `${ORIGIN}/done` }), deps);
    expect(next.headers.get('location')).toBe(`${ORIGIN}/done`);
    // JSON clients still get JSON.
    const json = await handleRequest(form({ message: 'x' }, { accept: 'application/json' }), deps);
    expect(json.status).toBe(200);
    expect(json.headers.get('location')).toBeNull();
  });

  it('falls back to /thanks when the stored thank-you page is unusable', async () => {
    for (const stored of ['javascript:alert(1)', 'https://user:pw@site.test/', 'not a url']) {
      const { deps } = fakeDeps({}, stored);
      const res = await handleRequest(form({ message: 'x' }), deps);
      expect(res.headers.get('location'), stored).toBe('http://app.test/thanks');
    }
  });

  it('treats a honeypot hit as success without queuing mail', async () => {
    const { deps, accepted, sent } = fakeDeps();
    const res = await handleRequest(form({ message: 'buy', _gotcha: 'x' }), deps);
    expect(res.status).toBe(303);
    expect(accepted[0]).toMatchObject({ isSpam: true, notification: null });
    expect(sent).toEqual([]);
  });

  it('refuses with the right status and stores nothing', async () => {
    const cases: [Request, number][] = [
      [
        new Request(`http://fn.test/forms/${FORM_ID}`, {
          method: 'GET',
          headers: { origin: ORIGIN },
        }),
        405,
      ],
      [
        new Request(`http://fn.test/forms/${FORM_ID}`, {
          method: 'PUT',
          body: 'x',
          headers: { origin: ORIGIN },
        }),
        405,
      ],
      [
        post('a=b', { 'content-type': 'application/x-www-form-urlencoded' }, '/forms/not-a-uuid'),
        404,
      ],
      [
        post(
          'a=b',
          { 'content-type': 'application/x-www-form-urlencoded' },
          '/forms/7a0e4bb0-0000-4000-8000-000000000000',
        ),
        404,
      ],
      [
        post('a=b', {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.test',
        }),
        403,
      ],
      [post('a=b', { 'content-type': 'text/plain' }), 415],
      [
        post('x'.repeat(LIMITS.maxBodyBytes + 1), {
          'content-type': 'application/x-www-form-urlencoded',
        }),
        413,
      ],
      [post('{bad', { 'content-type': 'application/json' }), 400],
      [form({ email: 'not-an-email' }), 422],
      [post('a=b', { 'content-type': 'application/x-www-form-urlencoded' }, '/forms/'), 404],
    ];
    for (const [req, status] of cases) {
      const { deps, accepted } = fakeDeps();
      const res = await handleRequest(req, deps);
      expect(res.status, `${req.method} ${req.url}`).toBe(status);
      expect(accepted).toEqual([]);
      expect(res.headers.get('content-type') ?? '').not.toContain('html');
    }
  });

  it('passes the rate-limit verdict on as 429 with Retry-After', async () => {
    const { deps, setAcceptResult } = fakeDeps();
    setAcceptResult({ status: 'rate_limited', retryAfter: 17 });
    const res = await handleRequest(form({ message: 'x' }, { accept: 'application/json' }), deps);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('17');
    expect((await res.json()).code).toBe('rate_limited');
  });

  it('answers 503 with Retry-After when storage fails, never 2xx', async () => {
    const { deps } = fakeDeps({
      accept: async () => {
        throw new Error('db down');
      },
    });
    const res = await handleRequest(form({ message: 'x' }), deps);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
  });

  it('answers preflight for the form origin and refuses others', async () => {
    const { deps } = fakeDeps();
    const ok = await handleRequest(
      new Request(`http://fn.test/forms/${FORM_ID}`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN },
      }),
      deps,
    );
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const bad = await handleRequest(
      new Request(`http://fn.test/forms/${FORM_ID}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.test' },
      }),
      deps,
    );
    expect(bad.status).toBe(403);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('runs deliveries only for the service role', async () => {
    const { deps } = fakeDeps();
    const req = (auth?: string) =>
      new Request('http://fn.test/forms/_deliver', {
        method: 'POST',
        headers: auth ? { authorization: auth } : {},
      });
    expect((await handleRequest(req(), deps)).status).toBe(401);
    expect((await handleRequest(req('Bearer anon'), deps)).status).toBe(401);
    const res = await handleRequest(req('Bearer service'), deps);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, claimed: 2, sent: 2, retrying: 0, failed: 0 });
    expect((await handleRequest(new Request('http://fn.test/forms/_deliver'), deps)).status).toBe(
      405,
    );
  });
});

describe('work queued by the entry besides its e-mail', () => {
  const accepted = (extra: Partial<Extract<AcceptResult, { status: 'accepted' }>>) =>
    ({ status: 'accepted', entryId: 'entry-1', deliveryId: null, ...extra }) as AcceptResult;
  const setUp = (result: AcceptResult) => {
    const hooked: string[] = [];
    const fake = fakeDeps({ sendWebhooksNow: async (id) => void hooked.push(id) });
    fake.setAcceptResult(result);
    return { ...fake, hooked };
  };
  const send = (deps: FormsDeps) =>
    handleRequest(form({ email: 'a@b.co', message: 'hi' }, { accept: 'application/json' }), deps);

  it('asks for webhook deliveries only when storage says some were queued, or cannot say', async () => {
    for (const [webhooksQueued, calls] of [
      [false, []],
      [true, ['entry-1']],
      [undefined, ['entry-1']],
    ] as const) {
      const { deps, hooked } = setUp(accepted({ webhooksQueued }));
      expect((await send(deps)).status).toBe(200);
      expect(hooked).toEqual(calls);
    }
  });

  it('starts the e-mail batch for an autoresponse when no notification was queued', async () => {
    const { deps, sent } = setUp(accepted({ webhooksQueued: false, autoresponseId: 'auto-1' }));
    expect((await send(deps)).status).toBe(200);
    expect(sent).toEqual(['auto-1']);
    const quiet = setUp(accepted({ webhooksQueued: false, autoresponseId: null }));
    expect((await send(quiet.deps)).status).toBe(200);
    expect(quiet.sent).toEqual([]);
  });
});

describe('the client a submission is counted for', () => {
  const SECRET = 'p'.repeat(MIN_PROXY_SECRET_LENGTH);
  const send = async (headers: Record<string, string>, proxySecret: string | null = SECRET) => {
    const { deps, accepted } = fakeDeps({ clientIpPolicy: { proxySecret } });
    await handleRequest(form({ message: 'Hi' }, headers), deps);
    return accepted[0].ipHash;
  };

  it('is the gateway’s entry on a direct call, never one the client wrote', async () => {
    expect(await send({ 'x-forwarded-for': '6.6.6.6, 203.0.113.9' })).toBe('hash(203.0.113.9)');
    const wrongSecret = { 'x-forwarded-for': '6.6.6.6, 203.0.113.9', [PROXY_SECRET_HEADER]: 'x' };
    expect(await send(wrongSecret)).toBe('hash(203.0.113.9)');
  });

  it('is the proxy’s entry when the request carries the proxy secret', async () => {
    const viaProxy = { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 192.0.2.1' };
    expect(await send({ ...viaProxy, [PROXY_SECRET_HEADER]: SECRET })).toBe('hash(198.51.100.7)');
    expect(await send({ ...viaProxy, [PROXY_SECRET_HEADER]: SECRET }, null)).toBe(
      'hash(192.0.2.1)',
    );
  });

  it('is an IPv6 client’s /64 network', async () => {
    expect(await send({ 'x-forwarded-for': '2001:db8:1:2:aaaa::1' })).toBe(
      'hash(2001:db8:1:2::/64)',
    );
  });
});

describe('a refused browser post', () => {
  // What Chromium sends with a plain HTML form's post.
  const BROWSER = {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'sec-fetch-mode': 'navigate',
  };

  it('is sent (303) to the site’s refusal page with the code and field names only', async () => {
    const { deps, accepted } = fakeDeps();
    const res = await handleRequest(form({ email: 'not-an-address', message: 'x' }, BROWSER), deps);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      'http://app.test/form-error?code=invalid_fields&fields=email',
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('');
    expect(accepted).toEqual([]);
  });

  it('carries the wait of a rate limit, and keeps Retry-After', async () => {
    const { deps, setAcceptResult } = fakeDeps();
    setAcceptResult({ status: 'rate_limited', retryAfter: 37 });
    const res = await handleRequest(form({ message: 'x' }, BROWSER), deps);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      'http://app.test/form-error?code=rate_limited&retry=37',
    );
    expect(res.headers.get('retry-after')).toBe('37');
  });

  it('names each refusal: empty, gone, foreign origin, too large, storage down', async () => {
    const { deps } = fakeDeps();
    const target = async (req: Request, d: FormsDeps = deps) =>
      (await handleRequest(req, d)).headers.get('location');
    expect(await target(form({ message: '' }, BROWSER))).toBe(
      'http://app.test/form-error?code=empty_submission',
    );
    expect(
      await target(form({ message: 'x' }, BROWSER), {
        ...deps,
        loadForm: async () => null,
      }),
    ).toBe('http://app.test/form-error?code=form_not_found');
    expect(await target(form({ message: 'x' }, { ...BROWSER, origin: 'https://evil.test' }))).toBe(
      'http://app.test/form-error?code=origin_not_allowed',
    );
    expect(await target(form({ message: 'x'.repeat(LIMITS.maxBodyBytes) }, BROWSER))).toBe(
      'http://app.test/form-error?code=payload_too_large',
    );
    expect(
      await target(form({ message: 'x' }, BROWSER), {
        ...deps,
        accept: async () => {
          throw new Error('db down');
        },
      }),
    ).toBe('http://app.test/form-error?code=storage_failed&retry=5');
    // A plain-text form (enctype="text/plain") is the page's mistake, told as such.
    expect(await target(post('message=x', { 'content-type': 'text/plain', ...BROWSER }))).toBe(
      'http://app.test/form-error?code=unsupported_media_type',
    );
  });

  it('is a navigation only: scripts, fetch() and JSON clients keep their status code', async () => {
    const { deps } = fakeDeps();
    const bad = { email: 'not-an-address' };
    // curl and scripts: no HTML asked for.
    const script = await handleRequest(form(bad), deps);
    expect(script.status).toBe(422);
    expect(script.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // fetch() in a page: a browser, but not navigating.
    const fetched = await handleRequest(
      form(bad, { accept: 'text/html', 'sec-fetch-mode': 'cors' }),
      deps,
    );
    expect(fetched.status).toBe(422);
    // A browser without Fetch Metadata that asks for HTML is navigating.
    const older = await handleRequest(form(bad, { accept: 'text/html' }), deps);
    expect(older.status).toBe(303);
    const json = await handleRequest(form(bad, { ...BROWSER, accept: 'application/json' }), deps);
    expect(json.status).toBe(422);
    expect((await json.json()).code).toBe('invalid_fields');
  });

  it('keeps the plain-text answer when SITE_URL is unset', async () => {
    const { deps } = fakeDeps({ siteUrl: null });
    const res = await handleRequest(form({ email: 'not-an-address' }, BROWSER), deps);
    expect(res.status).toBe(422);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('email: Enter a valid e-mail address.');
  });
});

describe('without SITE_URL', () => {
  it('thanks a browser in plain words instead of redirecting it to a guessed address', async () => {
    const { deps, accepted } = fakeDeps({ siteUrl: null });
    const res = await handleRequest(form({ message: 'Hi' }), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('Thank you! Your message has been sent.\n');
    expect(accepted).toHaveLength(1);
  });

  it('still honours _next and the form’s thank-you page, and JSON clients get JSON', async () => {
    const { deps } = fakeDeps({ siteUrl: null }, 'https://owner.test/merci');
    const toForm = await handleRequest(form({ message: 'Hi' }), deps);
    expect(toForm.status).toBe(303);
    expect(toForm.headers.get('location')).toBe('https://owner.test/merci');
    const next = await handleRequest(form({ message: 'Hi', _next: `${ORIGIN}/done` }), deps);
    expect(next.headers.get('location')).toBe(`${ORIGIN}/done`);
    const json = await handleRequest(form({ message: 'Hi' }, { accept: 'application/json' }), deps);
    expect(await json.json()).toEqual({ ok: true, id: 'entry-1' });
  });
});

describe('a form edited while it is remembered', () => {
  const seen = {
    id: FORM_ID,
    name: 'Contact',
    target_email: 'owner@example.com',
    allowed_origin: ORIGIN,
    redirect_url: null,
  };

  it('stores the post against the form as it is now, with its new name in the e-mail', async () => {
    const { deps, accepted } = fakeDeps();
    const renamed = { ...seen, name: 'Support' };
    const answers: AcceptResult[] = [{ status: 'form_changed', form: renamed }];
    deps.accept = async (input) => {
      accepted.push(input);
      return answers.shift() ?? { status: 'accepted', entryId: input.entryId, deliveryId: 'd1' };
    };
    const res = await handleRequest(form({ message: 'Hi' }, { accept: 'application/json' }), deps);
    expect(res.status).toBe(200);
    expect(accepted.map((a) => [a.form.name, a.notification?.subject])).toEqual([
      ['Contact', 'New submission: Contact'],
      ['Support', 'New submission: Support'],
    ]);
    // The same entry, never two.
    expect(new Set(accepted.map((a) => a.entryId)).size).toBe(1);
  });

  it('refuses the post when the edit no longer allows its origin', async () => {
    const { deps, accepted } = fakeDeps();
    deps.accept = async (input) => {
      accepted.push(input);
      return { status: 'form_changed', form: { ...seen, allowed_origin: 'https://new.test' } };
    };
    const res = await handleRequest(form({ message: 'Hi' }, { accept: 'application/json' }), deps);
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(accepted).toHaveLength(1);
  });

  it('gives up with 503 when the form keeps changing', async () => {
    const { deps, accepted } = fakeDeps();
    deps.accept = async (input) => {
      accepted.push(input);
      return { status: 'form_changed', form: { ...seen, name: `v${accepted.length}` } };
    };
    const res = await handleRequest(form({ message: 'Hi' }), deps);
    expect(res.status).toBe(503);
    expect(accepted).toHaveLength(3);
  });

  it('reads the form afresh before refusing an origin the remembered form does not allow', async () => {
    const reads: (boolean | undefined)[] = [];
    const { deps } = fakeDeps({
      loadForm: async (_id, opts) => {
        reads.push(opts?.fresh);
        // Remembered: an older origin; fresh: the one the owner just set.
        return { ...seen, allowed_origin: opts?.fresh ? ORIGIN : 'https://old.test' };
      },
    });
    const res = await handleRequest(form({ message: 'Hi' }, { accept: 'application/json' }), deps);
    expect(res.status).toBe(200);
    expect(reads).toEqual([undefined, true]);
  });
});
