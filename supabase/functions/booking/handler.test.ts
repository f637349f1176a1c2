// @vitest-environment node
// The booking endpoint's answers over fakes: routes, methods and CORS; each body's checks (400 and
// 422 naming the field, 413 past the cap); the honeypot answered like a booking with nothing
// stored; the client counted (by its hash, never its address) before the CAPTCHA and the booking,
// so failing the CAPTCHA spends its allowance; the CAPTCHA asked before booking only for pages
// that have one; every storage answer mapped to the contract's status; the mails kicked after
// what queued them; 503 with Retry-After whenever storage throws. tests/endpoint/booking-endpoint.test.ts runs the same through the
// local stack and Postgres.
import { describe, expect, it } from 'vitest';
import type { CaptchaVerdict } from '../_shared/captcha.ts';
import { BOOKING } from '../_shared/limits.ts';
import { handleRequest, type BookingDeps } from './handler.ts';
import type {
  AttemptResult,
  BookedBooking,
  BookInput,
  BookingPage,
  BookResult,
  CancelResult,
  CaptchaCheckInput,
  ManagedBooking,
  RescheduleResult,
} from './model.ts';

const BASE = 'https://project.supabase.co/functions/v1/booking';
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789-_AB';
const PREFIX = 'https://site.example/book/manage?token=';

const page: BookingPage = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-0123456789ab',
  slug: 'intro',
  name: 'Intro call',
  location: 'https://meet.example/abc',
  duration_minutes: 30,
  time_zone: 'Europe/Berlin',
  captcha_provider: null,
};

const booking: BookedBooking = {
  id: 'b0000000-0000-4000-8000-000000000001',
  starts_at: '2026-12-01T08:00:00Z',
  ends_at: '2026-12-01T08:30:00Z',
  name: 'Ada',
  time_zone: 'Europe/Berlin',
  visitor_time_zone: 'America/New_York',
  booking_form_name: 'Intro call',
  location: 'https://meet.example/abc',
};

const managed: ManagedBooking = {
  ...booking,
  slug: 'intro',
  duration_minutes: 30,
  status: 'confirmed',
};

interface Answers {
  page?: BookingPage | null | Error;
  attempt?: AttemptResult | Error;
  book?: BookResult | Error;
  manage?: ManagedBooking | null | Error;
  cancel?: CancelResult | Error;
  reschedule?: RescheduleResult | Error;
  captcha?: CaptchaVerdict;
  linkPrefix?: string | null;
}

function fakes(answers: Answers = {}) {
  const calls = {
    page: [] as string[],
    attempts: [] as [string, string][],
    book: [] as BookInput[],
    manage: [] as string[],
    cancel: [] as [string, string][],
    reschedule: [] as [string, string, string][],
    captcha: [] as CaptchaCheckInput[],
    kicks: 0,
  };
  const answer = <T>(value: T | Error): Promise<T> =>
    value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
  const logged: string[] = [];
  const deps: BookingDeps = {
    page: (slug) => (
      calls.page.push(slug),
      answer(answers.page === undefined ? page : answers.page)
    ),
    takeAttempt: (slug, client) => (
      calls.attempts.push([slug, client]),
      answer(answers.attempt ?? { status: 'ok' })
    ),
    clientHash: async (key) => `hash(${key})`,
    book: (input) => (
      calls.book.push(input),
      answer(answers.book ?? { status: 'booked', booking, visitorMailed: true })
    ),
    manage: (token) => (
      calls.manage.push(token),
      answer(answers.manage === undefined ? managed : answers.manage)
    ),
    cancel: (token, reason) => (
      calls.cancel.push([token, reason]),
      answer(answers.cancel ?? 'cancelled')
    ),
    reschedule: (token, start, prefix) => (
      calls.reschedule.push([token, start, prefix]),
      answer(answers.reschedule ?? { status: 'rescheduled', booking })
    ),
    checkCaptcha: async (input) => (calls.captcha.push(input), answers.captcha ?? { ok: true }),
    deliverSoon: () => void calls.kicks++,
    linkPrefix: answers.linkPrefix === undefined ? PREFIX : answers.linkPrefix,
    newId: () => 'made-up-id',
    log: (message) => void logged.push(message),
  };
  return { deps, calls, logged };
}

const visitor = {
  slug: 'intro',
  start: '2026-12-01T09:00:00+01:00',
  name: '  Ada Lovelace ',
  email: 'ada@example.com',
  note: 'About the engine',
  timeZone: 'America/New_York',
};

const request = (
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) =>
  new Request(`${BASE}${path}`, {
    method: init.method ?? 'POST',
    body: init.body,
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': '203.0.113.7',
      ...init.headers,
    },
  });

const book = (body: unknown, deps: BookingDeps, headers: Record<string, string> = {}) =>
  handleRequest(
    request('/book', { body: typeof body === 'string' ? body : JSON.stringify(body), headers }),
    deps,
  );

async function answerOf(res: Response) {
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    cors: res.headers.get('access-control-allow-origin'),
    cache: res.headers.get('cache-control'),
    retryAfter: res.headers.get('retry-after'),
  };
}

describe('routes, methods and CORS', () => {
  it('answers preflights for each route with the methods it takes', async () => {
    const { deps } = fakes();
    for (const [path, methods] of [
      ['/book', 'POST, OPTIONS'],
      [`/manage/${TOKEN}`, 'GET, OPTIONS'],
      [`/manage/${TOKEN}/cancel`, 'POST, OPTIONS'],
      [`/manage/${TOKEN}/reschedule`, 'POST, OPTIONS'],
    ]) {
      const res = await handleRequest(request(path!, { method: 'OPTIONS' }), deps);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe(methods);
      expect(res.headers.get('access-control-allow-headers')).toContain('content-type');
    }
  });

  it('refuses other methods with 405 and Allow, and unknown paths with 404', async () => {
    const { deps, calls } = fakes();
    const get = await answerOf(await handleRequest(request('/book', { method: 'GET' }), deps));
    expect(get).toMatchObject({ status: 405, body: { code: 'method_not_allowed' }, cors: '*' });
    const res = await handleRequest(
      request(`/manage/${TOKEN}`, { method: 'POST', body: '{}' }),
      deps,
    );
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');
    const cancelGet = await handleRequest(
      request(`/manage/${TOKEN}/cancel`, { method: 'GET' }),
      deps,
    );
    expect(cancelGet.headers.get('allow')).toBe('POST, OPTIONS');
    for (const path of ['', '/slots', `/manage/${TOKEN}/delete`, '/book/extra']) {
      const answer = await answerOf(await handleRequest(request(path, { body: '{}' }), deps));
      expect(answer, path).toMatchObject({ status: 404, body: { code: 'not_found' }, cors: '*' });
    }
    expect(calls.book).toEqual([]);
  });

  it('serves the routes behind the local gateway’s prefix and on Supabase’s bare path', async () => {
    const { deps } = fakes();
    const bare = new Request(`https://x.supabase.co/booking/manage/${TOKEN}`);
    expect((await handleRequest(bare, deps)).status).toBe(200);
    const slash = new Request(`https://x.supabase.co/booking/manage/${TOKEN}/`);
    expect((await handleRequest(slash, deps)).status).toBe(200);
  });
});

describe('POST /booking/book', () => {
  it('books with the checked fields, the client key, the link prefix; 201 and the mail kicked', async () => {
    const { deps, calls } = fakes();
    const answer = await answerOf(await book(visitor, deps));
    expect(answer).toEqual({
      status: 201,
      body: { booking, visitorMailed: true },
      cors: '*',
      cache: 'no-store',
      retryAfter: null,
    });
    expect(calls.page).toEqual(['intro']);
    expect(calls.book).toEqual([
      {
        slug: 'intro',
        start: '2026-12-01T08:00:00.000Z',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        note: 'About the engine',
        visitorTimeZone: 'America/New_York',
        client: 'hash(203.0.113.7)',
        linkPrefix: PREFIX,
      },
    ]);
    expect(calls.attempts).toEqual([['intro', 'hash(203.0.113.7)']]);
    expect(calls.captcha).toEqual([]);
    expect(calls.kicks).toBe(1);
  });

  it('counts an IPv6 client by its /64 and takes no address the client wrote', async () => {
    const { deps, calls } = fakes();
    await book(visitor, deps, { 'x-forwarded-for': '198.51.100.1, 2001:db8:1:2:3:4:5:6' });
    expect(calls.book[0]!.client).toBe('hash(2001:db8:1:2::/64)');
    expect(calls.attempts[0]![1]).toBe('hash(2001:db8:1:2::/64)');
  });

  it('says when the visitor’s copy was not mailed (their address had its mails today)', async () => {
    const { deps } = fakes({ book: { status: 'booked', booking, visitorMailed: false } });
    expect((await answerOf(await book(visitor, deps))).body).toEqual({
      booking,
      visitorMailed: false,
    });
  });

  it('takes a missing note as none', async () => {
    const { deps, calls } = fakes();
    const { note: _note, ...withoutNote } = visitor;
    expect((await book(withoutNote, deps)).status).toBe(201);
    expect(calls.book[0]!.note).toBe('');
  });

  it('refuses what is not a JSON object with 400 invalid_json, asking nothing', async () => {
    const { deps, calls } = fakes();
    for (const body of ['', 'not json', '[1]', '"text"', 'null', '{"slug":', '\xff\xfe']) {
      const answer = await answerOf(await book(body, deps));
      expect(answer, body).toMatchObject({
        status: 400,
        body: { code: 'invalid_json' },
        cors: '*',
      });
      expect(typeof answer.body.error).toBe('string');
    }
    expect(calls.page).toEqual([]);
    expect(calls.attempts).toEqual([]);
    expect(calls.book).toEqual([]);
  });

  it('refuses each invalid field with 422 naming it, asking nothing', async () => {
    const { deps, calls } = fakes();
    const cases: [Record<string, unknown>, string][] = [
      [{ slug: undefined }, 'slug'],
      [{ slug: 42 }, 'slug'],
      [{ start: undefined }, 'start'],
      [{ start: '2026-12-01 08:00' }, 'start'],
      [{ start: '2026-12-01T08:00:00' }, 'start'],
      [{ start: '2026-13-45T08:00:00Z' }, 'start'],
      [{ start: 1764576000000 }, 'start'],
      [{ name: '   ' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ name: 'x'.repeat(BOOKING.maxNameLength + 1) }, 'name'],
      [{ email: 'not-an-address' }, 'email'],
      [{ email: 'a b@example.com' }, 'email'],
      [{ email: `${'a'.repeat(250)}@example.com` }, 'email'],
      [{ note: 'n'.repeat(BOOKING.maxNoteLength + 1) }, 'note'],
      [{ note: ['x'] }, 'note'],
      [{ timeZone: '+02:00' }, 'time_zone'],
      [{ timeZone: 'Europe/Berlin; drop' }, 'time_zone'],
      [{ timeZone: undefined }, 'time_zone'],
    ];
    for (const [change, field] of cases) {
      const answer = await answerOf(await book({ ...visitor, ...change }, deps));
      expect(answer, JSON.stringify(change)).toMatchObject({
        status: 422,
        body: { code: 'invalid', field },
        cors: '*',
      });
      expect(String(answer.body.error).length).toBeGreaterThan(5);
    }
    expect(calls.page).toEqual([]);
    // Characters, not bytes: a name of 100 non-ASCII characters is fine.
    expect((await book({ ...visitor, name: 'é'.repeat(BOOKING.maxNameLength) }, deps)).status).toBe(
      201,
    );
  });

  it('answers 404 for a slug no page can have without asking, and for an unknown page', async () => {
    const { deps, calls } = fakes({ page: null });
    for (const slug of ['a', 'Has Space', '-intro', 'x'.repeat(61)]) {
      expect((await answerOf(await book({ ...visitor, slug }, deps))).body.code).toBe('not_found');
    }
    expect(calls.page).toEqual([]);
    expect(await answerOf(await book(visitor, deps))).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(calls.page).toEqual(['intro']);
    expect(calls.book).toEqual([]);
    // A slug in capitals is the page's own.
    await book({ ...visitor, slug: 'INTRO' }, deps);
    expect(calls.page).toEqual(['intro', 'intro']);
  });

  it('refuses a body over the cap with 413, whether declared or streamed', async () => {
    const { deps, calls } = fakes();
    const big = JSON.stringify({ ...visitor, note: 'x'.repeat(BOOKING.maxBodyBytes) });
    expect((await answerOf(await book(big, deps))).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = new Request(`${BASE}/book`, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect((await handleRequest(streamed, deps)).status).toBe(413);
    expect(calls.book).toEqual([]);
  });

  it('answers a filled honeypot like a booking, from the page’s facts, storing and mailing nothing', async () => {
    const { deps, calls } = fakes({ page: { ...page, captcha_provider: 'turnstile' } });
    const answer = await answerOf(await book({ ...visitor, website: 'http://spam.example' }, deps));
    expect(answer).toMatchObject({ status: 201, cors: '*', cache: 'no-store' });
    expect(answer.body).toEqual({
      booking: {
        id: 'made-up-id',
        starts_at: '2026-12-01T08:00:00.000Z',
        ends_at: '2026-12-01T08:30:00.000Z',
        name: 'Ada Lovelace',
        time_zone: 'Europe/Berlin',
        visitor_time_zone: 'America/New_York',
        booking_form_name: 'Intro call',
        location: 'https://meet.example/abc',
        slug: 'intro',
        duration_minutes: 30,
        status: 'confirmed',
      },
      visitorMailed: true,
    });
    expect(calls.attempts).toEqual([]);
    expect(calls.book).toEqual([]);
    expect(calls.captcha).toEqual([]);
    expect(calls.kicks).toBe(0);
    // An empty honeypot is a person's.
    expect((await book({ ...visitor, website: '' }, fakes().deps)).status).toBe(201);
    expect((await book({ ...visitor, website: '  ' }, fakes().deps)).status).toBe(201);
  });

  it('asks the CAPTCHA first on a page that has one, and books only when it passes', async () => {
    const withCaptcha = { ...page, captcha_provider: 'hcaptcha' as const };
    const passed = fakes({ page: withCaptcha });
    const res = await book({ ...visitor, captchaToken: ' tok-1 ' }, passed.deps);
    expect(res.status).toBe(201);
    expect(passed.calls.captcha).toEqual([
      { bookingFormId: page.id, provider: 'hcaptcha', token: 'tok-1', remoteIp: '203.0.113.7' },
    ]);
    expect(passed.calls.book).toHaveLength(1);

    const refusals: [CaptchaVerdict, number, string, string | null][] = [
      [{ ok: false, kind: 'missing', detail: 'no token' }, 403, 'captcha', null],
      [{ ok: false, kind: 'rejected', detail: 'invalid-input-response' }, 403, 'captcha', null],
      [
        { ok: false, kind: 'misconfigured', detail: 'bad secret' },
        500,
        'captcha_misconfigured',
        null,
      ],
      [{ ok: false, kind: 'unavailable', detail: 'timeout' }, 503, 'captcha_unavailable', '5'],
    ];
    for (const [verdict, status, code, retryAfter] of refusals) {
      const { deps, calls } = fakes({ page: withCaptcha, captcha: verdict });
      const answer = await answerOf(await book(visitor, deps));
      expect(answer, verdict.kind).toMatchObject({ status, body: { code }, cors: '*', retryAfter });
      expect(calls.captcha[0]!.token).toBeNull();
      expect(calls.book).toEqual([]);
      expect(calls.kicks).toBe(0);
    }
  });

  it('counts the client before the CAPTCHA and the booking, and stops there past its allowance', async () => {
    const withCaptcha = { ...page, captcha_provider: 'turnstile' as const };
    const { deps, calls } = fakes({
      page: withCaptcha,
      attempt: { status: 'rate_limited', retryAfter: 42 },
    });
    const answer = await answerOf(await book({ ...visitor, captchaToken: 'tok' }, deps));
    expect(answer).toMatchObject({
      status: 429,
      body: { code: 'rate_limited' },
      cors: '*',
      cache: 'no-store',
      retryAfter: '42',
    });
    expect(typeof answer.body.error).toBe('string');
    expect(calls.attempts).toEqual([['intro', 'hash(203.0.113.7)']]);
    expect(calls.captcha).toEqual([]);
    expect(calls.book).toEqual([]);
    expect(calls.kicks).toBe(0);
  });

  it('answers 404 when the page is gone by the time the request is counted', async () => {
    const { deps, calls } = fakes({ attempt: { status: 'not_found' } });
    expect(await answerOf(await book(visitor, deps))).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
      cors: '*',
    });
    expect(calls.book).toEqual([]);
  });

  it('spends the client’s allowance on failed CAPTCHA attempts, until it is refused', async () => {
    const withCaptcha = { ...page, captcha_provider: 'hcaptcha' as const };
    const { deps, calls } = fakes({
      page: withCaptcha,
      captcha: { ok: false, kind: 'rejected', detail: 'invalid-input-response' },
    });
    // The allowance as booking_take_attempt() keeps it: every request counted, whatever its fate.
    let left = 3;
    deps.takeAttempt = async (slug, client) => {
      calls.attempts.push([slug, client]);
      return left-- > 0 ? { status: 'ok' } : { status: 'rate_limited', retryAfter: 60 };
    };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await book({ ...visitor, captchaToken: `bad-${i}` }, deps)).status);
    expect(statuses).toEqual([403, 403, 403, 429, 429]);
    expect(calls.attempts).toHaveLength(5);
    expect(calls.captcha.map((c) => c.token)).toEqual(['bad-0', 'bad-1', 'bad-2']);
    expect(calls.book).toEqual([]);
    // A missing token is a failed attempt too.
    const missing = fakes({
      page: withCaptcha,
      captcha: { ok: false, kind: 'missing', detail: '' },
    });
    expect((await book(visitor, missing.deps)).status).toBe(403);
    expect(missing.calls.attempts).toHaveLength(1);
  });

  it('never hands storage the client’s address, only its hash', async () => {
    const { deps, calls } = fakes({ page: { ...page, captcha_provider: 'turnstile' } });
    await book({ ...visitor, captchaToken: 'tok' }, deps);
    const stored = JSON.stringify([calls.attempts, calls.book]);
    expect(stored).not.toMatch(/"203\.0\.113\.7"/);
    expect(stored).toContain('hash(203.0.113.7)');
    // The CAPTCHA provider is told the address itself, as its siteverify asks.
    expect(calls.captcha[0]!.remoteIp).toBe('203.0.113.7');
  });

  it('maps each refusal of booking_request to its status', async () => {
    const cases: [BookResult, number, Record<string, unknown>, string | null][] = [
      [{ status: 'not_found' }, 404, { code: 'not_found' }, null],
      [
        { status: 'invalid', field: 'start', message: 'This time is not offered.' },
        422,
        { code: 'invalid', field: 'start', error: 'This time is not offered.' },
        null,
      ],
      [
        { status: 'slot_taken', next: ['2026-12-01T08:30:00Z', '2026-12-01T09:00:00Z'] },
        409,
        { code: 'slot_taken', next: ['2026-12-01T08:30:00Z', '2026-12-01T09:00:00Z'] },
        null,
      ],
      [{ status: 'account_limit', retryAfter: 3600 }, 429, { code: 'account_limit' }, '3600'],
    ];
    for (const [result, status, body, retryAfter] of cases) {
      const { deps, calls } = fakes({ book: result });
      const answer = await answerOf(await book(visitor, deps));
      expect(answer, result.status).toMatchObject({ status, body, cors: '*', retryAfter });
      expect(typeof answer.body.error).toBe('string');
      expect(calls.kicks).toBe(0);
    }
  });

  it('answers 503 with Retry-After when the database is away, at either call', async () => {
    for (const answers of [
      { page: new Error('ECONNREFUSED') },
      { attempt: new Error('ECONNREFUSED') },
      { book: new Error('ECONNREFUSED') },
    ]) {
      const { deps, logged, calls } = fakes(answers);
      const answer = await answerOf(await book(visitor, deps));
      expect(answer).toMatchObject({
        status: 503,
        body: { code: 'unavailable' },
        cors: '*',
        retryAfter: '5',
      });
      expect(logged.join()).toContain('ECONNREFUSED');
      expect(calls.kicks).toBe(0);
    }
  });

  it('refuses to book without SITE_URL, as the e-mail’s link would lead nowhere', async () => {
    const { deps, calls } = fakes({ linkPrefix: null });
    expect(await answerOf(await book(visitor, deps))).toMatchObject({
      status: 503,
      body: { code: 'not_configured' },
    });
    expect(calls.book).toEqual([]);
  });
});

describe('GET /booking/manage/:token', () => {
  const get = (token: string, deps: BookingDeps) =>
    handleRequest(request(`/manage/${token}`, { method: 'GET' }), deps);

  it('answers the booking behind an unused link', async () => {
    const { deps, calls } = fakes();
    expect(await answerOf(await get(TOKEN, deps))).toEqual({
      status: 200,
      body: { booking: managed },
      cors: '*',
      cache: 'no-store',
      retryAfter: null,
    });
    expect(calls.manage).toEqual([TOKEN]);
  });

  it('answers 404 for a spent or unknown link, and for one that cannot be a token unasked', async () => {
    const { deps, calls } = fakes({ manage: null });
    expect(await answerOf(await get(TOKEN, deps))).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    for (const token of ['short', 'x'.repeat(257), '%E0%A4%A', 'has%20space%20in%20it%20ok']) {
      expect((await get(token, deps)).status, token).toBe(404);
    }
    expect(calls.manage).toEqual([TOKEN]);
  });

  it('answers 503 with Retry-After when the database is away', async () => {
    const { deps } = fakes({ manage: new Error('down') });
    expect(await answerOf(await get(TOKEN, deps))).toMatchObject({ status: 503, retryAfter: '5' });
  });
});

describe('POST /booking/manage/:token/cancel', () => {
  const cancel = (body: string | undefined, deps: BookingDeps, token = TOKEN) =>
    handleRequest(request(`/manage/${token}/cancel`, { body }), deps);

  it('cancels with the reason, answers 200 and kicks the CANCEL mails', async () => {
    const { deps, calls } = fakes();
    const answer = await answerOf(await cancel(JSON.stringify({ reason: ' Ill ' }), deps));
    expect(answer).toMatchObject({ status: 200, body: { status: 'cancelled' }, cors: '*' });
    expect(calls.cancel).toEqual([[TOKEN, 'Ill']]);
    expect(calls.kicks).toBe(1);
    // No body, or no reason: no reason.
    await cancel(undefined, deps);
    await cancel('{}', deps);
    expect(calls.cancel.slice(1)).toEqual([
      [TOKEN, ''],
      [TOKEN, ''],
    ]);
  });

  it('maps not_found, already_cancelled and past, mailing nothing', async () => {
    for (const [result, status, code] of [
      ['not_found', 404, 'not_found'],
      ['already_cancelled', 409, 'already_cancelled'],
      ['past', 409, 'past'],
    ] as const) {
      const { deps, calls } = fakes({ cancel: result });
      expect(await answerOf(await cancel('{}', deps))).toMatchObject({ status, body: { code } });
      expect(calls.kicks).toBe(0);
    }
  });

  it('refuses a bad body (400, 422 reason) and a bad token (404) unasked; 503 when away', async () => {
    const { deps, calls } = fakes();
    expect((await answerOf(await cancel('nope', deps))).body.code).toBe('invalid_json');
    expect(
      await answerOf(
        await cancel(JSON.stringify({ reason: 'r'.repeat(BOOKING.maxReasonLength + 1) }), deps),
      ),
    ).toMatchObject({ status: 422, body: { code: 'invalid', field: 'reason' } });
    expect((await answerOf(await cancel(JSON.stringify({ reason: 5 }), deps))).status).toBe(422);
    expect((await cancel('{}', deps, 'bad')).status).toBe(404);
    expect(calls.cancel).toEqual([]);
    const away = fakes({ cancel: new Error('down') });
    expect(await answerOf(await cancel('{}', away.deps))).toMatchObject({
      status: 503,
      retryAfter: '5',
    });
  });
});

describe('POST /booking/manage/:token/reschedule', () => {
  const move = (body: unknown, deps: BookingDeps, token = TOKEN) =>
    handleRequest(
      request(`/manage/${token}/reschedule`, {
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
      deps,
    );

  it('moves with a new link prefix, answers the booking and that a new link was mailed', async () => {
    const { deps, calls } = fakes();
    expect(await answerOf(await move({ start: '2026-12-02T10:00:00Z' }, deps))).toMatchObject({
      status: 200,
      body: { booking, manageUrlSent: true },
      cors: '*',
      cache: 'no-store',
    });
    expect(calls.reschedule).toEqual([[TOKEN, '2026-12-02T10:00:00.000Z', PREFIX]]);
    expect(calls.kicks).toBe(1);
  });

  it('maps not_found, past, invalid and slot_taken, mailing nothing', async () => {
    const cases: [RescheduleResult, number, Record<string, unknown>][] = [
      [{ status: 'not_found' }, 404, { code: 'not_found' }],
      [{ status: 'past' }, 409, { code: 'past' }],
      [{ status: 'already_cancelled' }, 409, { code: 'already_cancelled' }],
      [
        { status: 'invalid', field: 'start', message: 'Too soon.' },
        422,
        { code: 'invalid', field: 'start', error: 'Too soon.' },
      ],
      [
        { status: 'slot_taken', next: ['2026-12-02T10:30:00Z'] },
        409,
        { code: 'slot_taken', next: ['2026-12-02T10:30:00Z'] },
      ],
    ];
    for (const [result, status, body] of cases) {
      const { deps, calls } = fakes({ reschedule: result });
      expect(
        await answerOf(await move({ start: '2026-12-02T10:00:00Z' }, deps)),
        result.status,
      ).toMatchObject({
        status,
        body,
      });
      expect(calls.kicks).toBe(0);
    }
  });

  it('refuses a bad body and a bad token unasked; 503 when away or without SITE_URL', async () => {
    const { deps, calls } = fakes();
    expect((await answerOf(await move('', deps))).body.code).toBe('invalid_json');
    expect(await answerOf(await move({ start: 'tomorrow' }, deps))).toMatchObject({
      status: 422,
      body: { code: 'invalid', field: 'start' },
    });
    expect((await move({ start: '2026-12-02T10:00:00Z' }, deps, 'bad')).status).toBe(404);
    expect(calls.reschedule).toEqual([]);
    const away = fakes({ reschedule: new Error('down') });
    expect(await answerOf(await move({ start: '2026-12-02T10:00:00Z' }, away.deps))).toMatchObject({
      status: 503,
      retryAfter: '5',
    });
    const unset = fakes({ linkPrefix: null });
    expect((await move({ start: '2026-12-02T10:00:00Z' }, unset.deps)).status).toBe(503);
    expect(unset.calls.reschedule).toEqual([]);
  });
});
