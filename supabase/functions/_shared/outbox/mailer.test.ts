// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  createResendMailer,
  DEFAULT_FROM,
  encodeDisplayName,
  fromHeader,
  mailConfigFromEnv,
  senderAddress,
  usableFromName,
} from './mailer.ts';

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];
const mail = {
  id: 'd1',
  from: 'tinyback <forms@x.test>',
  to: 'owner@example.com',
  subject: 'S',
  replyTo: 'a@b.co',
  text: 't',
  html: '<p>h</p>',
};

describe('mail provider choice', () => {
  it('defaults to SMTP and reads its settings', () => {
    expect(mailConfigFromEnv(envOf({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '54325' }))).toEqual({
      provider: 'smtp',
      from: DEFAULT_FROM,
      host: '127.0.0.1',
      port: 54325,
      secure: false,
      user: null,
      pass: null,
    });
    expect(mailConfigFromEnv(envOf({ SMTP_HOST: 'h', SMTP_PORT: '465' }))).toMatchObject({
      secure: true,
    });
    expect(
      mailConfigFromEnv(envOf({ SMTP_HOST: 'h', SMTP_SECURE: 'false', SMTP_PORT: '465' })),
    ).toMatchObject({ secure: false });
  });

  it('chooses Resend and refuses incomplete setups', () => {
    expect(
      mailConfigFromEnv(
        envOf({ MAIL_PROVIDER: 'resend', RESEND_API_KEY: 'k', MAIL_FROM: 'a <a@b.co>\r\nBcc: x' }),
      ),
    ).toEqual({
      provider: 'resend',
      apiKey: 'k',
      from: 'a <a@b.co> Bcc: x',
    });
    expect(() => mailConfigFromEnv(envOf({ MAIL_PROVIDER: 'resend' }))).toThrow(/RESEND_API_KEY/);
    expect(() => mailConfigFromEnv(envOf({}))).toThrow(/SMTP_HOST/);
    expect(() => mailConfigFromEnv(envOf({ MAIL_PROVIDER: 'pigeon' }))).toThrow(/pigeon/);
  });
});

describe('Resend provider', () => {
  it('posts the message with the key and an idempotency key', async () => {
    const calls: [string, RequestInit][] = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return new Response('{"id":"r1"}', { status: 200 });
    }) as unknown as typeof fetch;
    await createResendMailer({ apiKey: 're_key' }, fetchStub).send(mail);
    const [url, init] = calls[0];
    expect(url).toBe('https://api.resend.com/emails');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer re_key');
    expect(headers['Idempotency-Key']).toBe('delivery-d1');
    expect(JSON.parse(init.body as string)).toEqual({
      from: mail.from,
      to: ['owner@example.com'],
      subject: 'S',
      text: 't',
      html: '<p>h</p>',
      reply_to: 'a@b.co',
    });
  });

  it('turns an error answer into a rejection', async () => {
    const fetchStub = (async () =>
      new Response('{"message":"invalid from"}', { status: 422 })) as unknown as typeof fetch;
    await expect(createResendMailer({ apiKey: 'k' }, fetchStub).send(mail)).rejects.toThrow(
      /422.*invalid from/,
    );
  });
});

describe('sender name', () => {
  it('keeps MAIL_FROM’s address whatever the name', () => {
    expect(senderAddress('tinyback <forms@x.test>')).toBe('forms@x.test');
    expect(senderAddress('forms@x.test')).toBe('forms@x.test');
    expect(senderAddress('"a <b>" <forms@x.test>')).toBe('forms@x.test');
    expect(fromHeader({ from: 'tinyback <forms@x.test>', fromName: 'Contact via tinyback' })).toBe(
      '"Contact via tinyback" <forms@x.test>',
    );
    expect(fromHeader({ from: 'forms@x.test', fromName: null })).toBe('forms@x.test');
    expect(fromHeader({ from: 'tinyback <forms@x.test>' })).toBe('tinyback <forms@x.test>');
  });

  it('quotes ASCII names and encodes others as RFC 2047 words of at most 75 characters', () => {
    expect(encodeDisplayName('Shop "Rex", Inc. \\ more')).toBe('"Shop \\"Rex\\", Inc. \\\\ more"');
    const encoded = encodeDisplayName(
      'Café Zoë — Kontakt über tinyback 日本語のフォームからの返信です',
    );
    for (const word of encoded.split(' ')) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
    }
    const decoded = encoded
      .split(' ')
      .map((word) => Buffer.from(word.slice(10, -2), 'base64').toString('utf8'))
      .join('');
    expect(decoded).toBe('Café Zoë — Kontakt über tinyback 日本語のフォームからの返信です');
  });

  it('ignores a name that could pose as an address or break the header', () => {
    for (const bad of [
      'a@b.co',
      'Bank <x>',
      'line\r\nBcc: x',
      '\u202Eevil',
      '',
      ' ',
      'x'.repeat(61),
    ]) {
      expect(usableFromName(bad), JSON.stringify(bad)).toBeNull();
      expect(fromHeader({ from: 'tinyback <forms@x.test>', fromName: bad })).toBe(
        'tinyback <forms@x.test>',
      );
    }
    expect(usableFromName('x'.repeat(60))).toBe('x'.repeat(60));
  });

  it('sends the name to Resend before MAIL_FROM’s address', async () => {
    const bodies: unknown[] = [];
    const fetchStub = (async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(init.body as string));
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    await createResendMailer({ apiKey: 'k' }, fetchStub).send({
      ...mail,
      fromName: 'Süd via tinyback',
    });
    expect(bodies[0]).toMatchObject({
      from: '=?UTF-8?B?U8O8ZCB2aWEgdGlueWJhY2s=?= <forms@x.test>',
    });
  });
});
