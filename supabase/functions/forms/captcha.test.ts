// @vitest-environment node
// The CAPTCHA check against a real HTTP server on 127.0.0.1 standing in for the provider's
// siteverify API: what it is sent, and how each kind of answer (or none) is judged.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { captchaVerifyUrlFromEnv, verifyCaptcha } from '../_shared/captcha.ts';
import { captchaError, captchaToken, createCaptchaCheck } from './captcha.ts';
import { handleRequest, type FormsDeps } from './handler.ts';
import type { AcceptInput, AcceptResult, FormRecord } from './model.ts';

type Reply = (res: http.ServerResponse) => void;
let reply: Reply;
let received: { contentType: string | undefined; form: URLSearchParams }[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      received.push({ contentType: req.headers['content-type'], form: new URLSearchParams(body) });
      reply(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((r) => server.close(r));
});
beforeEach(() => {
  received = [];
  reply = (res) => res.end(JSON.stringify({ success: true }));
});

const json =
  (body: unknown, status = 200) =>
  (res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
const verify = (token: string | null, timeoutMs?: number) =>
  verifyCaptcha(
    { provider: 'turnstile', secret: 'sec-ret', token, remoteIp: '203.0.113.9' },
    { verifyUrl: url, timeoutMs },
  );

describe('captchaToken', () => {
  it("reads the provider's own response field, trimmed, and nothing else", () => {
    const fields: [string, string][] = [
      ['g-recaptcha-response', 'from-recaptcha'],
      ['cf-turnstile-response', '  '],
      ['cf-turnstile-response', ' tok '],
    ];
    expect(captchaToken('turnstile', fields)).toBe('tok');
    expect(captchaToken('recaptcha', fields)).toBe('from-recaptcha');
    expect(captchaToken('hcaptcha', fields)).toBeNull();
  });
});

describe('verifyCaptcha', () => {
  it('posts secret, token and the trusted client address, form-encoded, and accepts success', async () => {
    expect(await verify('tok-1')).toEqual({ ok: true });
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(received[0]!.form)).toEqual({
      secret: 'sec-ret',
      response: 'tok-1',
      remoteip: '203.0.113.9',
    });
  });

  it('refuses a missing token without asking the provider', async () => {
    expect(await verify(null)).toMatchObject({ ok: false, kind: 'missing' });
    expect(received).toEqual([]);
  });

  it('judges refusals: a bad token is rejected, a bad secret is the owner’s setup', async () => {
    reply = json({ success: false, 'error-codes': ['invalid-input-response'] });
    expect(await verify('bad')).toMatchObject({ ok: false, kind: 'rejected' });
    reply = json({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    expect(await verify('used')).toMatchObject({ ok: false, kind: 'rejected' });
    reply = json({ success: false, 'error-codes': ['invalid-input-secret'] });
    expect(await verify('tok')).toMatchObject({ ok: false, kind: 'misconfigured' });
    // Only `true` is success.
    reply = json({ success: 'true' });
    expect(await verify('tok')).toMatchObject({ ok: false, kind: 'rejected' });
  });

  it('calls an outage unavailable: 5xx, 429, not JSON, internal-error, no answer in time', async () => {
    reply = json({ success: true }, 500);
    expect(await verify('t')).toMatchObject({ ok: false, kind: 'unavailable' });
    reply = json({ success: true }, 429);
    expect(await verify('t')).toMatchObject({ ok: false, kind: 'unavailable' });
    reply = (res) => res.end('<html>busy</html>');
    expect(await verify('t')).toMatchObject({ ok: false, kind: 'unavailable' });
    reply = json({ success: false, 'error-codes': ['internal-error'] });
    expect(await verify('t')).toMatchObject({ ok: false, kind: 'unavailable' });
    reply = () => undefined; // never answers
    expect(await verify('t', 200)).toMatchObject({ ok: false, kind: 'unavailable' });
  });

  it('maps each verdict to a clear endpoint error (4xx for the visitor, 503 retryable)', () => {
    const status = (kind: 'missing' | 'rejected' | 'misconfigured' | 'unavailable') =>
      captchaError({ ok: false, kind, detail: '' });
    expect(status('missing')).toMatchObject({ status: 400, code: 'captcha_required' });
    expect(status('rejected')).toMatchObject({ status: 403, code: 'captcha_failed' });
    expect(status('misconfigured')).toMatchObject({ status: 500, code: 'captcha_misconfigured' });
    expect(status('unavailable')).toMatchObject({
      status: 503,
      code: 'captcha_unavailable',
      retryAfter: 5,
    });
  });
});

describe('captchaVerifyUrlFromEnv', () => {
  const read = (value: string | undefined) => {
    const warn = vi.fn();
    const got = captchaVerifyUrlFromEnv(
      (name) => (name === 'CAPTCHA_VERIFY_URL_OVERRIDE' ? value : undefined),
      warn,
    );
    return { got, warned: warn.mock.calls.map((c) => String(c[0])) };
  };

  it('is null when unset', () => {
    expect(read(undefined)).toEqual({ got: null, warned: [] });
    expect(read(' ')).toEqual({ got: null, warned: [] });
  });

  it('takes a loopback URL, and says so', () => {
    const { got, warned } = read('http://127.0.0.1:8787/verify');
    expect(got).toBe('http://127.0.0.1:8787/verify');
    expect(warned[0]).toMatch(/not checked by the providers/);
    expect(read('http://localhost:9/v').got).toBe('http://localhost:9/v');
  });

  it('ignores anything that could reach another host', () => {
    for (const value of [
      'https://collector.example.com/verify',
      'http://127.0.0.1.example.com/v',
      'http://10.0.0.5/v',
      'ftp://127.0.0.1/v',
      'not a url',
    ]) {
      const { got, warned } = read(value);
      expect(got, value).toBeNull();
      expect(warned[0], value).toMatch(/ignored/);
    }
  });
});

describe('createCaptchaCheck', () => {
  const fields: [string, string][] = [['h-captcha-response', 'tok']];
  const input = { formId: 'f1', provider: 'hcaptcha' as const, fields, remoteIp: '198.51.100.2' };

  it('reads the form’s secret and verifies with it', async () => {
    const loadSecret = vi.fn(async () => 'form-secret');
    const check = createCaptchaCheck({ loadSecret, verifyUrl: url, log: () => undefined });
    expect(await check(input)).toEqual({ ok: true });
    expect(loadSecret).toHaveBeenCalledWith('f1');
    expect(received[0]!.form.get('secret')).toBe('form-secret');
  });

  it('needs no secret lookup for a post without a token', async () => {
    const loadSecret = vi.fn(async () => 'x');
    const check = createCaptchaCheck({ loadSecret, verifyUrl: url, log: () => undefined });
    expect(await check({ ...input, fields: [] })).toMatchObject({ kind: 'missing' });
    expect(loadSecret).not.toHaveBeenCalled();
  });

  it('is misconfigured without a secret and unavailable when the lookup fails', async () => {
    const log = vi.fn();
    const none = createCaptchaCheck({ loadSecret: async () => null, verifyUrl: url, log });
    expect(await none(input)).toMatchObject({ ok: false, kind: 'misconfigured' });
    const broken = createCaptchaCheck({
      loadSecret: () => Promise.reject(new Error('db down')),
      verifyUrl: url,
      log,
    });
    expect(await broken(input)).toMatchObject({ ok: false, kind: 'unavailable' });
    expect(received).toEqual([]);
    expect(log.mock.calls.join('\n')).toMatch(/db down/);
  });
});

describe('the handler with a CAPTCHA form', () => {
  const FORM_ID = '0b5c6a1e-3f7d-4c2a-9e8b-1d2c3b4a5f60';
  const ORIGIN = 'https://site.test';
  const plain: FormRecord = {
    id: FORM_ID,
    name: 'Contact',
    target_email: 'owner@example.com',
    allowed_origin: ORIGIN,
    redirect_url: null,
  };

  function depsFor(opts: {
    remembered: FormRecord;
    /** What a fresh read finds (storage as it is now); the remembered form when not given. */
    stored?: FormRecord | null;
    /** What accept answers, in turn; then `accepted`. */
    answers?: AcceptResult[];
    checkCaptcha?: FormsDeps['checkCaptcha'];
  }) {
    const accepts: AcceptInput[] = [];
    const reads: ('remembered' | 'fresh')[] = [];
    const answers = [...(opts.answers ?? [])];
    const deps: FormsDeps = {
      loadForm: async (_id, read) => {
        reads.push(read?.fresh ? 'fresh' : 'remembered');
        return read?.fresh && opts.stored !== undefined ? opts.stored : opts.remembered;
      },
      accept: async (input) => {
        accepts.push(input);
        return answers.shift() ?? { status: 'accepted', entryId: input.entryId, deliveryId: null };
      },
      hashIp: (ip) => `hash:${ip}`,
      checkCaptcha: opts.checkCaptcha,
      sendNow: async () => undefined,
      background: async (work) => work,
      deliverDue: async () => ({ claimed: 0, sent: 0, retrying: 0, failed: 0 }),
      isServiceRole: () => false,
      clientIpPolicy: {},
      siteUrl: null,
      newId: () => 'entry-1',
      now: () => new Date(0),
      log: () => undefined,
    };
    return { deps, accepts, reads };
  }

  const post = (deps: FormsDeps, fields: Record<string, string> = {}) =>
    handleRequest(
      new Request(`http://fn.test/forms/${FORM_ID}`, {
        method: 'POST',
        headers: {
          origin: ORIGIN,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': '203.0.113.5',
        },
        body: new URLSearchParams({ message: 'Hi', ...fields }).toString(),
      }),
      deps,
    );

  it('fails closed (503, nothing stored) when no check is wired', async () => {
    const { deps, accepts } = depsFor({ remembered: { ...plain, captcha_provider: 'turnstile' } });
    const res = await post(deps, { 'cf-turnstile-response': 'tok' });
    expect(res.status).toBe(503);
    expect((await res.json()).code).toBe('captcha_unavailable');
    expect(accepts).toEqual([]);
  });

  it('checks again when storage says CAPTCHA was turned on since the form was remembered', async () => {
    const withCaptcha: FormRecord = { ...plain, captcha_provider: 'hcaptcha' };
    const checkCaptcha = vi.fn<NonNullable<FormsDeps['checkCaptcha']>>(async () => ({
      ok: false,
      kind: 'missing',
      detail: 'no token',
    }));
    const refused = depsFor({
      remembered: plain,
      answers: [{ status: 'form_changed', form: withCaptcha }],
      checkCaptcha,
    });
    const res = await post(refused.deps);
    expect(res.status).toBe(400);
    expect(refused.accepts).toHaveLength(1);
    expect(checkCaptcha).toHaveBeenCalledWith(
      expect.objectContaining({ formId: FORM_ID, provider: 'hcaptcha', remoteIp: '203.0.113.5' }),
    );

    checkCaptcha.mockResolvedValue({ ok: true });
    const passed = depsFor({
      remembered: plain,
      answers: [{ status: 'form_changed', form: withCaptcha }],
      checkCaptcha,
    });
    const ok = await post(passed.deps, { 'h-captcha-response': 'tok' });
    expect(ok.status).toBe(200);
    expect(passed.accepts.map((a) => a.form.captcha_provider)).toEqual([undefined, 'hcaptcha']);
    // The token is not part of what is stored.
    expect(passed.accepts[1]!.data).toEqual({});
  });

  it('reads the form afresh before refusing a post without a token: CAPTCHA turned off a moment ago', async () => {
    // The worker remembers the form with CAPTCHA; its owner has just turned it off.
    const checkCaptcha = vi.fn<NonNullable<FormsDeps['checkCaptcha']>>(async () => ({
      ok: false,
      kind: 'missing',
      detail: 'no token',
    }));
    const { deps, accepts, reads } = depsFor({
      remembered: { ...plain, captcha_provider: 'turnstile' },
      stored: { ...plain, captcha_provider: null },
      checkCaptcha,
    });
    const res = await post(deps);
    expect(res.status).toBe(200);
    expect(reads).toEqual(['remembered', 'fresh']);
    expect(checkCaptcha).toHaveBeenCalledOnce();
    // Stored against the form as it is now.
    expect(accepts.map((a) => a.form.captcha_provider)).toEqual([null]);
  });

  it('refuses after one fresh read when CAPTCHA is still on, and reads nothing more for a fresh form', async () => {
    const withCaptcha: FormRecord = { ...plain, captcha_provider: 'turnstile' };
    const checkCaptcha = vi.fn<NonNullable<FormsDeps['checkCaptcha']>>(async () => ({
      ok: false,
      kind: 'rejected',
      detail: 'refused',
    }));
    const still = depsFor({ remembered: withCaptcha, stored: withCaptcha, checkCaptcha });
    const res = await post(still.deps, { 'cf-turnstile-response': 'forged' });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('captcha_failed');
    expect(still.reads).toEqual(['remembered', 'fresh']);
    expect(still.accepts).toEqual([]);

    // Provider changed meanwhile: judged again against the new one (its own token field).
    checkCaptcha.mockImplementation(async ({ provider }) =>
      provider === 'hcaptcha' ? { ok: true } : { ok: false, kind: 'missing', detail: 'no token' },
    );
    const changed = depsFor({
      remembered: withCaptcha,
      stored: { ...plain, captcha_provider: 'hcaptcha' },
      checkCaptcha,
    });
    const ok = await post(changed.deps, { 'h-captcha-response': 'tok' });
    expect(ok.status).toBe(200);
    expect(changed.accepts.map((a) => a.form.captcha_provider)).toEqual(['hcaptcha']);

    // Deleted meanwhile: the form is gone.
    const gone = depsFor({ remembered: withCaptcha, stored: null, checkCaptcha });
    expect((await post(gone.deps)).status).toBe(404);
  });
});
