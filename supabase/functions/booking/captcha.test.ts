// @vitest-environment node
// A booking page's CAPTCHA check over a fake siteverify: the page's secret is read only for a
// token, the provider is asked with it and the client's address, and a token solved anywhere but
// the site is refused.
import { describe, expect, it } from 'vitest';
import { createBookingCaptchaCheck } from './captcha.ts';

function verifier(answer: Record<string, unknown> | Error) {
  const sent: URLSearchParams[] = [];
  const fetchStub = (async (_url: string, init: RequestInit) => {
    sent.push(new URLSearchParams(String(init.body)));
    if (answer instanceof Error) throw answer;
    return Response.json(answer);
  }) as unknown as typeof fetch;
  return { fetchStub, sent };
}

const input = {
  bookingFormId: 'f1',
  provider: 'turnstile' as const,
  token: 'tok',
  remoteIp: '203.0.113.7',
};

function check(
  answer: Record<string, unknown> | Error,
  secret: () => Promise<string | null> = async () => 's3cret',
) {
  const { fetchStub, sent } = verifier(answer);
  const logged: string[] = [];
  const run = createBookingCaptchaCheck({
    loadSecret: secret,
    verifyUrl: 'http://127.0.0.1:9/siteverify',
    siteUrl: 'https://site.example',
    log: (m) => void logged.push(m),
    fetch: fetchStub,
  });
  return { run, sent, logged };
}

describe('booking page CAPTCHA check', () => {
  it('passes a token the provider accepts on the site, sent with the secret and address', async () => {
    const { run, sent } = check({ success: true, hostname: 'site.example' });
    expect(await run(input)).toEqual({ ok: true });
    expect(Object.fromEntries(sent[0]!)).toEqual({
      secret: 's3cret',
      response: 'tok',
      remoteip: '203.0.113.7',
    });
  });

  it('refuses a token solved elsewhere, a refused one, and none at all unasked', async () => {
    expect((await check({ success: true, hostname: 'evil.example' }).run(input)).ok).toBe(false);
    expect(
      await check({ success: false, 'error-codes': ['invalid-input-response'] }).run(input),
    ).toMatchObject({ ok: false, kind: 'rejected' });
    const none = check({ success: true });
    expect(await none.run({ ...input, token: null })).toMatchObject({ kind: 'missing' });
    expect(none.sent).toEqual([]);
  });

  it('tells a missing or unreadable secret and an unreachable provider apart', async () => {
    expect(await check({ success: true }, async () => null).run(input)).toMatchObject({
      kind: 'misconfigured',
    });
    const unreadable = check({ success: true }, () => Promise.reject(new Error('db down')));
    expect(await unreadable.run(input)).toMatchObject({ kind: 'unavailable' });
    expect(unreadable.logged.join()).toContain('db down');
    const away = check(new Error('timeout'));
    expect(await away.run(input)).toMatchObject({ kind: 'unavailable' });
    expect(away.logged.join()).toContain('f1');
  });
});
