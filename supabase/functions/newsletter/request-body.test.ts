// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseListSignup, parseSignup } from './request-body.ts';

const enc = (text: string) => new TextEncoder().encode(text);
const FORM = 'application/x-www-form-urlencoded';

async function multipartOf(form: FormData): Promise<[string, Uint8Array]> {
  const res = new Response(form);
  return [res.headers.get('content-type')!, new Uint8Array(await res.arrayBuffer())];
}

describe('parseListSignup', () => {
  it('reads email and name from JSON, urlencoded and multipart, as the database stores them', async () => {
    expect(
      await parseListSignup('application/json', enc('{"email":" A@B.CO ","name":" Ada "}')),
    ).toEqual({
      kind: 'signup',
      email: 'a@b.co',
      name: 'Ada',
      captchaTokens: {},
    });
    expect(
      await parseListSignup(`${FORM}; charset=utf-8`, enc('email=a%40b.co&name=&submit=Join')),
    ).toEqual({
      kind: 'signup',
      email: 'a@b.co',
      name: null,
      captchaTokens: {},
    });
    const form = new FormData();
    form.set('email', 'a@b.co');
    form.set('name', 'Line\r\nbreak');
    expect(await parseListSignup(...(await multipartOf(form)))).toEqual({
      kind: 'signup',
      email: 'a@b.co',
      name: 'Line break',
      captchaTokens: {},
    });
  });

  it('keeps the CAPTCHA widgets’ token fields, trimmed, and ignores empty ones', async () => {
    const parsed = await parseListSignup(
      FORM,
      enc('email=a%40b.co&cf-turnstile-response=+t1+&h-captcha-response=&g-recaptcha-response=r2'),
    );
    expect(parsed).toMatchObject({
      kind: 'signup',
      captchaTokens: { 'cf-turnstile-response': 't1', 'g-recaptcha-response': 'r2' },
    });
  });

  it('tells a filled honeypot apart, whatever else the body holds', async () => {
    expect(await parseListSignup(FORM, enc('email=nope&_gotcha=x'))).toEqual({ kind: 'honeypot' });
    expect(await parseListSignup('application/json', enc('{"_gotcha":"x"}'))).toEqual({
      kind: 'honeypot',
    });
    expect(await parseListSignup(FORM, enc('email=a%40b.co&_gotcha=+'))).toMatchObject({
      kind: 'signup',
    });
  });

  it('refuses invalid addresses and long names with the field and the database’s words', async () => {
    for (const email of ['', 'a', 'a@b', 'a..b@c.de', `${'a'.repeat(250)}@b.co`, 'a b@c.de'])
      expect(await parseListSignup('application/json', enc(JSON.stringify({ email })))).toEqual({
        kind: 'invalid',
        field: 'email',
        message: 'Enter a valid e-mail address.',
      });
    expect(await parseListSignup('application/json', enc('{"email":5}'))).toMatchObject({
      field: 'email',
    });
    const long = JSON.stringify({ email: 'a@b.co', name: 'é'.repeat(101) });
    expect(await parseListSignup('application/json', enc(long))).toEqual({
      kind: 'invalid',
      field: 'name',
      message: 'Keep the name under 100 characters.',
    });
    expect(
      await parseListSignup(
        'application/json',
        enc(JSON.stringify({ email: 'a@b.co', name: 'é'.repeat(100) })),
      ),
    ).toMatchObject({ kind: 'signup' });
  });

  it('refuses other types, broken bodies, files and more than one address', async () => {
    expect(await parseListSignup('text/plain', enc('email=a@b.co'))).toEqual({
      kind: 'refused',
      problem: 'unsupported_type',
    });
    expect(await parseListSignup(null, enc(''))).toEqual({
      kind: 'refused',
      problem: 'unsupported_type',
    });
    for (const body of ['{', '[]', 'null', '"a@b.co"'])
      expect(await parseListSignup('application/json', enc(body))).toEqual({
        kind: 'refused',
        problem: 'invalid_body',
      });
    expect(await parseListSignup(FORM, enc('email=a%40b.co&email=c%40d.co'))).toEqual({
      kind: 'refused',
      problem: 'invalid_body',
    });
    expect(await parseListSignup(FORM, new Uint8Array([0x65, 0x3d, 0xff]))).toEqual({
      kind: 'refused',
      problem: 'invalid_body',
    });
    const withFile = new FormData();
    withFile.set('email', 'a@b.co');
    withFile.set('cv', new Blob(['x']), 'cv.txt');
    expect(await parseListSignup(...(await multipartOf(withFile)))).toEqual({
      kind: 'refused',
      problem: 'invalid_body',
    });
    expect(await parseListSignup('multipart/form-data; boundary=x', enc('garbage'))).toEqual({
      kind: 'refused',
      problem: 'invalid_body',
    });
  });
});

describe('parseSignup (the footer)', () => {
  it('still takes only JSON or urlencoded with one email field', () => {
    expect(parseSignup(FORM, enc('email=a%40b.co'))).toEqual({ ok: true, email: 'a@b.co' });
    expect(parseSignup('multipart/form-data; boundary=x', enc(''))).toEqual({
      ok: false,
      problem: 'unsupported_type',
    });
  });
});
