// @vitest-environment node
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { describe, expect, it } from 'vitest';
import { listUnsubscribeUrlOf, signUnsubscribe, unsubscribeMailtoOf } from '../list-unsubscribe.ts';
import {
  createResendMailer,
  DEFAULT_FROM,
  encodeDisplayName,
  fromHeader,
  mailConfigFromEnv,
  senderAddress,
  smtpMessage,
  usableFromName,
  type OutgoingMail,
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

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//tinyback//booking//EN',
  'METHOD:REQUEST',
  'BEGIN:VEVENT',
  'UID:b1@tinyback.tools',
  'SEQUENCE:0',
  'DTSTAMP:20261201T070000Z',
  'DTSTART:20261201T080000Z',
  'DTEND:20261201T083000Z',
  'SUMMARY:Intro call – Zoë',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const invitation: OutgoingMail = { ...mail, calendar: { method: 'REQUEST', content: ICS } };

/** The message nodemailer (the version the SMTP mailer imports) writes for these options. */
function compose(options: ReturnType<typeof smtpMessage>): Promise<string> {
  return new Promise((resolve, reject) =>
    new MailComposer(options)
      .compile()
      .build((err: Error | null, message: Buffer) =>
        err ? reject(err) : resolve(message.toString('utf8').replace(/\r\n/g, '\n')),
      ),
  );
}

/** The leaf parts of a MIME message: their headers (unfolded) and decoded bodies. */
function leafParts(source: string): { headers: string; body: string }[] {
  const split = (text: string) => {
    const at = text.indexOf('\n\n');
    return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 2)];
  };
  const [headers, body] = split(source);
  const unfolded = headers.replace(/\n[ \t]+/g, ' ');
  const boundary = /content-type:\s*multipart\/[^\n]*boundary="?([^";\n]+)"?/i.exec(unfolded)?.[1];
  if (!boundary) {
    const text = body.replace(/\n$/, '');
    let decoded = text;
    if (/content-transfer-encoding:\s*base64/i.test(unfolded))
      decoded = Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
    else if (/content-transfer-encoding:\s*quoted-printable/i.test(unfolded))
      decoded = Buffer.from(
        text
          .replace(/=\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    return [{ headers: unfolded, body: decoded }];
  }
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((part) => leafParts(part.replace(/^\n/, '')));
}

describe('calendar invitations', () => {
  it('leave a plain mail as it was', () => {
    expect(smtpMessage(mail)).toEqual({
      from: mail.from,
      to: mail.to,
      subject: 'S',
      text: 't',
      html: '<p>h</p>',
      replyTo: 'a@b.co',
      messageId: '<delivery-d1@tinyback.tools>',
    });
    expect(smtpMessage({ ...mail, calendar: null })).not.toHaveProperty('icalEvent');
  });

  it('go to nodemailer as icalEvent with the method and invite.ics', () => {
    expect(smtpMessage(invitation).icalEvent).toEqual({
      method: 'REQUEST',
      content: ICS,
      filename: 'invite.ics',
    });
  });

  it('become a text/calendar alternative with the method, and the same file attached', async () => {
    const source = await compose(
      smtpMessage({ ...invitation, calendar: { method: 'CANCEL', content: ICS } }),
    );
    expect(source).toMatch(/^Content-Type: multipart\/mixed;/im);
    expect(source).toMatch(/^Content-Type: multipart\/alternative;/im);
    const parts = leafParts(source);
    const types = parts.map((p) => /content-type:\s*([^;\n]+)/i.exec(p.headers)?.[1]);
    expect(types).toEqual(['text/plain', 'text/html', 'text/calendar', 'application/ics']);
    const alternative = parts[2]!;
    expect(alternative.headers).toMatch(
      /content-type: text\/calendar; charset=utf-8; method=CANCEL/i,
    );
    expect(alternative.headers).not.toMatch(/content-disposition/i);
    expect(alternative.body.replace(/\n/g, '\r\n')).toBe(ICS);
    const attached = parts[3]!;
    expect(attached.headers).toMatch(/content-disposition: attachment; filename=invite\.ics/i);
    // Base64 keeps the file's own CRLF line ends.
    expect(attached.body).toBe(ICS);
  });

  it('reach Resend as an invite.ics attachment typed text/calendar with the method', async () => {
    const bodies: Record<string, unknown>[] = [];
    const fetchStub = (async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(init.body as string));
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    const mailer = createResendMailer({ apiKey: 'k' }, fetchStub);
    await mailer.send(invitation);
    await mailer.send({ ...invitation, calendar: { method: 'CANCEL', content: ICS } });
    await mailer.send({ ...mail, calendar: null });
    expect(bodies[0]!.attachments).toEqual([
      {
        filename: 'invite.ics',
        content: Buffer.from(ICS, 'utf8').toString('base64'),
        content_type: 'text/calendar; method=REQUEST; charset=UTF-8',
      },
    ]);
    expect(bodies[1]!.attachments).toMatchObject([
      { content_type: 'text/calendar; method=CANCEL; charset=UTF-8' },
    ]);
    expect(bodies[2]).not.toHaveProperty('attachments');
  });

  it('encode a large invitation to Resend intact', async () => {
    const big = ICS.replace('SUMMARY:', `DESCRIPTION:${'é'.repeat(30_000)}\r\nSUMMARY:`);
    let sent: { content: string }[] = [];
    const fetchStub = (async (_url: string, init: RequestInit) => {
      sent = JSON.parse(init.body as string).attachments;
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    await createResendMailer({ apiKey: 'k' }, fetchStub).send({
      ...mail,
      calendar: { method: 'REQUEST', content: big },
    });
    expect(Buffer.from(sent[0]!.content, 'base64').toString('utf8')).toBe(big);
  });
});

const UNSUBSCRIBE = 'https://tinyback.tools/functions/v1/newsletter/unsubscribe?t=Zk3q_9xY';
const MAILTO = 'mailto:unsubscribe+Zk3q_9xY@tinyback.tools?subject=unsubscribe';
const newsletter: OutgoingMail = {
  ...mail,
  list: {
    unsubscribeUrl: UNSUBSCRIBE,
    unsubscribeMailto: MAILTO,
    listId: 'Acme News <news.acme.tinyback.tools>',
  },
};

/**
 * The raw message nodemailer's transport writes for these options (the whole sendMail path, as
 * the SMTP mailer takes it), with CRLF line ends as on the wire.
 */
async function rawMessage(options: ReturnType<typeof smtpMessage>): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail(options);
  return (info.message as Buffer).toString('utf8');
}

/** The top-level header lines (folded lines kept apart) of a raw message. */
function headerLines(raw: string): string[] {
  return raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n');
}

/** The lines of `lines` that start a List-* header, with any continuation lines after them. */
function listLines(lines: string[]): string[] {
  return lines.filter((line, i) => {
    let start = i;
    while (start > 0 && /^[ \t]/.test(lines[start])) start--;
    return /^list-/i.test(lines[start]);
  });
}

/** What Resend is asked to send, per call. */
function resendBodies() {
  const bodies: Record<string, unknown>[] = [];
  const fetchStub = (async (_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(init.body as string));
    return new Response('{}', { status: 200 });
  }) as unknown as typeof fetch;
  return { bodies, mailer: createResendMailer({ apiKey: 'k' }, fetchStub) };
}

describe('list headers', () => {
  it('are written by nodemailer exactly in the RFC form, one line each, https first', async () => {
    const lines = headerLines(await rawMessage(smtpMessage(newsletter)));
    expect(listLines(lines)).toEqual([
      `List-Unsubscribe: <${UNSUBSCRIBE}>, <${MAILTO}>`,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'List-ID: "Acme News" <news.acme.tinyback.tools>',
    ]);
  });

  it('take the signed mailto of a campaign as it is, percent-encoded subject and all', async () => {
    const link = await signUnsubscribe(
      '7d6c5b4a-3928-4716-a5b4-c3d2e1f00112',
      'a1b2c3d4-e5f6-4789-8abc-def012345678',
      'derived:key',
    );
    const url = listUnsubscribeUrlOf('https://p.supabase.co/functions/v1', link);
    const mailto = unsubscribeMailtoOf('unsubscribe@news.example.com', link);
    const lines = headerLines(
      await rawMessage(
        smtpMessage({ ...mail, list: { unsubscribeUrl: url, unsubscribeMailto: mailto } }),
      ),
    );
    expect(listLines(lines)[0]).toBe(`List-Unsubscribe: <${url}>, <${mailto}>`);
  });

  it('leave out the mailto and List-ID when not given, and are absent from a plain mail', async () => {
    const lines = headerLines(
      await rawMessage(smtpMessage({ ...mail, list: { unsubscribeUrl: UNSUBSCRIBE } })),
    );
    expect(listLines(lines)).toEqual([
      `List-Unsubscribe: <${UNSUBSCRIBE}>`,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    ]);
    expect(listLines(headerLines(await rawMessage(smtpMessage({ ...mail, list: null }))))).toEqual(
      [],
    );
    expect(smtpMessage({ ...mail, list: null })).not.toHaveProperty('headers');
  });

  it('keep a long URL whole on one line (never folded inside the brackets)', async () => {
    const long = `${UNSUBSCRIBE}&pad=${'a'.repeat(900)}`;
    const raw = await rawMessage(
      smtpMessage({ ...newsletter, list: { unsubscribeUrl: long, listId: 'n.example.com' } }),
    );
    const lines = headerLines(raw);
    expect(listLines(lines)[0]).toBe(`List-Unsubscribe: <${long}>`);
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);
  });

  it('stand in the message’s own header block when an invitation makes it multipart', async () => {
    const raw = await rawMessage(
      smtpMessage({ ...newsletter, calendar: { method: 'REQUEST', content: ICS } }),
    );
    expect(listLines(headerLines(raw))).toHaveLength(3);
    expect(raw.match(/^List-/gim)).toHaveLength(3);
  });

  it('write the List-ID in each form it is given, the name quoted or encoded', () => {
    const listId = (id: string) =>
      smtpMessage({ ...mail, list: { unsubscribeUrl: UNSUBSCRIBE, listId: id } }).headers?.[
        'List-ID'
      ]?.value;
    expect(listId('news.acme.example')).toBe('<news.acme.example>');
    expect(listId(' <news.acme.example> ')).toBe('<news.acme.example>');
    expect(listId('Acme <news.acme.example>')).toBe('"Acme" <news.acme.example>');
    expect(listId('"Acme \\"Weekly\\"" <news.acme.example>')).toBe(
      '"Acme \\"Weekly\\"" <news.acme.example>',
    );
    expect(listId('Café <news.acme.example>')).toBe('=?UTF-8?B?Q2Fmw6k=?= <news.acme.example>');
    expect(listId("a!#$%&'*+-/=?^_`{|}~.example")).toBe("<a!#$%&'*+-/=?^_`{|}~.example>");
  });

  it('allow http only to the local stack', () => {
    for (const url of [
      'http://127.0.0.1:54321/functions/v1/newsletter/unsubscribe?t=x',
      'http://localhost:54321/functions/v1/newsletter/unsubscribe?t=x',
      'HTTPS://TINYBACK.TOOLS/u',
    ])
      expect(smtpMessage({ ...mail, list: { unsubscribeUrl: url } }).headers).toMatchObject({
        'List-Unsubscribe': { prepared: true, value: `<${url}>` },
      });
  });

  it('reach Resend through its headers field, the same values', async () => {
    const { bodies, mailer } = resendBodies();
    await mailer.send(newsletter);
    await mailer.send({ ...mail, list: { unsubscribeUrl: UNSUBSCRIBE } });
    await mailer.send({ ...mail, list: null });
    expect(bodies[0]!.headers).toEqual({
      'List-Unsubscribe': `<${UNSUBSCRIBE}>, <${MAILTO}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-ID': '"Acme News" <news.acme.tinyback.tools>',
    });
    expect(bodies[1]!.headers).toEqual({
      'List-Unsubscribe': `<${UNSUBSCRIBE}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(bodies[2]).not.toHaveProperty('headers');
  });

  const refused: [string, NonNullable<OutgoingMail['list']>, RegExp][] = [
    ['plain http', { unsubscribeUrl: 'http://tinyback.tools/u' }, /must be an https URL/],
    ['http to a look-alike host', { unsubscribeUrl: 'http://localhost.evil.test/u' }, /https/],
    ['http to a look-alike IP', { unsubscribeUrl: 'http://127.0.0.1.evil.test/u' }, /https/],
    ['http with a local user part', { unsubscribeUrl: 'http://localhost@evil.test/u' }, /https/],
    ['another scheme', { unsubscribeUrl: 'ftp://tinyback.tools/u' }, /https/],
    ['javascript:', { unsubscribeUrl: 'javascript:alert(1)' }, /https/],
    ['a relative URL', { unsubscribeUrl: '/u?t=x' }, /https/],
    ['https without //', { unsubscribeUrl: 'https:tinyback.tools/u' }, /https/],
    ['an empty URL', { unsubscribeUrl: '' }, /https/],
    ['a mailto as the URL', { unsubscribeUrl: MAILTO }, /https/],
    ['a space', { unsubscribeUrl: 'https://x.test/u?a=b c' }, /U\+0020 at position 21/],
    ['a tab', { unsubscribeUrl: 'https://x.test/u\t' }, /U\+0009/],
    ['CRLF', { unsubscribeUrl: 'https://x.test/u\r\nBcc: evil@x.test' }, /U\+000D/],
    ['a lone LF', { unsubscribeUrl: 'https://x.test/u\nBcc: evil@x.test' }, /U\+000A/],
    ['NUL', { unsubscribeUrl: 'https://x.test/u\0' }, /U\+0000/],
    ['DEL', { unsubscribeUrl: 'https://x.test/u\x7f' }, /U\+007F/],
    ['a C1 control', { unsubscribeUrl: 'https://x.test/u\u0085' }, /U\+0085/],
    ['a bidi override', { unsubscribeUrl: 'https://x.test/\u202Eu' }, /U\+202E/],
    ['non-ASCII', { unsubscribeUrl: 'https://x.test/ü' }, /U\+00FC/],
    ['an astral character', { unsubscribeUrl: 'https://x.test/😀' }, /U\+1F600 at position 16/],
    ['<', { unsubscribeUrl: 'https://x.test/<u' }, /U\+003C/],
    ['>', { unsubscribeUrl: 'https://x.test/u>, <https://evil.test' }, /U\+003E/],
    ['a comma', { unsubscribeUrl: 'https://x.test/u,https://evil.test' }, /U\+002C/],
    [
      'a URL over 2 000 characters',
      { unsubscribeUrl: `https://x.test/u?t=${'a'.repeat(2_000)}` },
      /List-Unsubscribe header would be a 2039-character line; .* at most 998/,
    ],
    [
      'a URL that makes the line 999 characters',
      { unsubscribeUrl: `https://x.test/${'a'.repeat(998 - 19 - 1 - 15 + 1)}` },
      /999-character line/,
    ],
    [
      'a URL and mailto that together overflow the line',
      { unsubscribeUrl: `https://x.test/${'a'.repeat(900)}`, unsubscribeMailto: MAILTO },
      /List-Unsubscribe header would be a/,
    ],
    [
      'a bare address as mailto',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: 'u@x.test' },
      /mailto: URI/,
    ],
    [
      'a mailto without address',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: 'mailto:?subject=x' },
      /mailto: URI/,
    ],
    [
      'a mailto without @',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: 'mailto:unsubscribe' },
      /mailto: URI/,
    ],
    [
      'an https URL as mailto',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: UNSUBSCRIBE },
      /mailto: URI/,
    ],
    [
      'two mailto addresses',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: 'mailto:a@x.test,b@x.test' },
      /mailto holds U\+002C/,
    ],
    [
      'CRLF in the mailto',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: 'mailto:a@x.test\r\nBcc: b@x.test' },
      /mailto holds U\+000D/,
    ],
    [
      'a space in the mailto',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: 'mailto:a@x.test?subject=un subscribe' },
      /mailto holds U\+0020/,
    ],
    [
      '> in the mailto',
      { unsubscribeUrl: UNSUBSCRIBE, unsubscribeMailto: 'mailto:a@x.test>' },
      /mailto holds U\+003E/,
    ],
    [
      'a list-id without a dot',
      { unsubscribeUrl: UNSUBSCRIBE, listId: 'news' },
      /List-ID must be dot-atom/,
    ],
    [
      'a list-id with a space',
      { unsubscribeUrl: UNSUBSCRIBE, listId: 'news letter.example' },
      /dot-atom/,
    ],
    [
      'a list-id with an empty label',
      { unsubscribeUrl: UNSUBSCRIBE, listId: 'news..example' },
      /dot-atom/,
    ],
    [
      'a list-id with a leading dot',
      { unsubscribeUrl: UNSUBSCRIBE, listId: '.news.example' },
      /dot-atom/,
    ],
    ['a list-id with @', { unsubscribeUrl: UNSUBSCRIBE, listId: 'news@acme.example' }, /dot-atom/],
    [
      'a list-id with CRLF',
      { unsubscribeUrl: UNSUBSCRIBE, listId: 'news.example\r\nBcc: x@x.test' },
      /dot-atom/,
    ],
    ['an unclosed list-id', { unsubscribeUrl: UNSUBSCRIBE, listId: '<news.example' }, /dot-atom/],
    ['a non-ASCII list-id', { unsubscribeUrl: UNSUBSCRIBE, listId: 'nëws.example' }, /dot-atom/],
    [
      'a list-id over 255 characters',
      { unsubscribeUrl: UNSUBSCRIBE, listId: `${'a'.repeat(250)}.example` },
      /at most 255/,
    ],
    [
      'CRLF in the list name',
      { unsubscribeUrl: UNSUBSCRIBE, listId: 'Acme\r\nBcc: x@x.test <news.example>' },
      /List-ID name/,
    ],
    [
      '@ in the list name',
      { unsubscribeUrl: UNSUBSCRIBE, listId: 'news@acme <news.example>' },
      /List-ID name/,
    ],
    [
      'a bidi override in the list name',
      { unsubscribeUrl: UNSUBSCRIBE, listId: '\u202EAcme <news.example>' },
      /List-ID name/,
    ],
    [
      'a list name over 60 characters',
      { unsubscribeUrl: UNSUBSCRIBE, listId: `${'A'.repeat(61)} <news.example>` },
      /1–60 characters/,
    ],
  ];

  it.each(refused)(
    'refuse %s before anything is sent, with the reason',
    async (_what, list, reason) => {
      expect(() => smtpMessage({ ...mail, list })).toThrow(reason);
      let called = false;
      const fetchStub = (async () => {
        called = true;
        return new Response('{}', { status: 200 });
      }) as unknown as typeof fetch;
      await expect(
        createResendMailer({ apiKey: 'k' }, fetchStub).send({ ...mail, list }),
      ).rejects.toThrow(reason);
      expect(called).toBe(false);
    },
  );

  it('accept a URL whose line is exactly 998 characters', () => {
    const url = `https://x.test/${'a'.repeat(998 - 19 - 1 - 15)}`;
    expect(`List-Unsubscribe: <${url}>`).toHaveLength(998);
    expect(smtpMessage({ ...mail, list: { unsubscribeUrl: url } }).headers).toBeDefined();
  });
});
