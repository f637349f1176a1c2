// Sign-up confirmation as GoTrue stores and mails it, and POST /resend's answers, without a
// database: the statements are recorded and the mail is caught in memory. The whole flow through
// supabase-js and real SMTP is in tests/conformance/auth-confirmation.test.ts.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { StackSettings } from '../config.ts';
import type { OutgoingMail } from '../mail/send.ts';
import type { AuthDeps } from './deps.ts';
import { AuthError } from './errors.ts';
import { resend } from './handlers/resend.ts';
import { AuthLimits } from './limits.ts';
import { matchRoute } from './routes.ts';
import {
  confirmationLink,
  confirmationMail,
  issueConfirmation,
  obfuscatedUser,
  sendConfirmation,
} from './signup-confirmation.ts';

const USER_ID = '22222222-2222-4222-8222-222222222222';
const UNCONFIRMED = 'waiting@example.com';
const CONFIRMED = 'done@example.com';

interface Statement {
  sql: string;
  params: unknown[];
}

/** A pool that records every statement and knows an unconfirmed and a confirmed account. */
function recordingPool() {
  const statements: Statement[] = [];
  const client = {
    async query(sql: string, params: unknown[] = []) {
      statements.push({ sql, params });
      if (/from auth\.users where lower\(email\)/.test(sql)) {
        const email = String(params[0]);
        if (email === UNCONFIRMED)
          return { rows: [{ id: USER_ID, email, email_confirmed_at: null }] };
        if (email === CONFIRMED)
          return { rows: [{ id: USER_ID, email, email_confirmed_at: new Date() }] };
      }
      return { rows: [] };
    },
    release() {},
  };
  const pool = { connect: async () => client, query: client.query } as unknown as pg.Pool;
  return { pool, statements };
}

const sha224 = (text: string) => createHash('sha224').update(text).digest('hex');

describe('issueConfirmation', () => {
  it('stores sha224(e-mail + code) as the confirmation token and one-time token, and stamps the time', async () => {
    const { pool, statements } = recordingPool();
    const issued = await issueConfirmation(pool, { id: USER_ID, email: UNCONFIRMED });
    expect(issued.otp).toMatch(/^\d{6}$/);
    expect(issued.hash).toBe(sha224(UNCONFIRMED + issued.otp));
    const [update, clear, insert] = statements;
    expect(update.sql).toMatch(/set confirmation_token = \$2, confirmation_sent_at = now\(\)/);
    expect(update.params).toEqual([USER_ID, issued.hash]);
    expect(clear.sql).toMatch(/delete from auth\.one_time_tokens .*'confirmation_token'/s);
    expect(insert.sql).toMatch(/insert into auth\.one_time_tokens/);
    expect(insert.params.slice(1)).toEqual([USER_ID, issued.hash, UNCONFIRMED]);
  });
});

describe('the confirmation mail', () => {
  it('links to GET /verify with the token hash, type signup and the redirect', () => {
    const link = new URL(
      confirmationLink('http://127.0.0.1:54321/auth/v1', 'abc123', 'http://127.0.0.1:5173/a?b=c'),
    );
    expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1:54321/auth/v1/verify');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      token: 'abc123',
      type: 'signup',
      redirect_to: 'http://127.0.0.1:5173/a?b=c',
    });
  });

  it('is Supabase\'s "Confirm Your Signup", with the link escaped in HTML and the code', () => {
    const url = 'http://127.0.0.1:54321/auth/v1/verify?token=t&type=signup&redirect_to=x';
    const mail = confirmationMail(url, '012345');
    expect(mail.subject).toBe('Confirm Your Signup');
    expect(mail.html).toContain('<h2>Confirm your signup</h2>');
    expect(mail.html).toContain(`<a href="${url.replace(/&/g, '&amp;')}">Confirm your mail</a>`);
    expect(mail.html).toContain('enter the code: 012345');
    expect(mail.text).toContain(`\n${url}\n`);
    expect(mail.text).toContain('enter the code: 012345');
  });
});

describe('sendConfirmation', () => {
  const options = (mail: (m: OutgoingMail) => Promise<void>) => ({
    user: { id: USER_ID, email: UNCONFIRMED },
    externalUrl: 'http://127.0.0.1:54321/auth/v1',
    redirectTo: 'http://127.0.0.1:5173/dashboard',
    mail,
    log: () => undefined,
  });

  it('mails the address a link carrying the stored token', async () => {
    const { pool, statements } = recordingPool();
    const sent: OutgoingMail[] = [];
    await sendConfirmation(
      pool,
      options(async (m) => void sent.push(m)),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe(UNCONFIRMED);
    const stored = statements[0].params[1];
    const link = new URL(/(http:\/\/\S+\/verify\?\S+)/.exec(sent[0].text ?? '')![1]);
    expect(link.searchParams.get('token')).toBe(stored);
    expect(link.searchParams.get('redirect_to')).toBe('http://127.0.0.1:5173/dashboard');
  });

  it('fails with GoTrue\'s 500 "Error sending confirmation email" when the mail cannot go', async () => {
    const { pool } = recordingPool();
    const failing = sendConfirmation(
      pool,
      options(async () => {
        throw new Error('connection refused');
      }),
    );
    await expect(failing).rejects.toBeInstanceOf(AuthError);
    await expect(failing).rejects.toMatchObject({
      status: 500,
      code: 'unexpected_failure',
      message: 'Error sending confirmation email',
    });
  });
});

describe('obfuscatedUser', () => {
  it('discloses nothing of the account: a fresh id, nothing confirmed, no identities', () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    const a = obfuscatedUser(CONFIRMED, { name: 'Someone' }, now);
    const b = obfuscatedUser(CONFIRMED, { name: 'Someone' }, now);
    expect(a.id).not.toBe(b.id);
    expect(a).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      aud: 'authenticated',
      role: '',
      email: CONFIRMED,
      phone: '',
      confirmation_sent_at: now.toISOString(),
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Someone' },
      identities: [],
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      is_anonymous: false,
    });
  });
});

describe('POST /resend', () => {
  function request(body: unknown) {
    const req = Readable.from([Buffer.from(JSON.stringify(body))]) as unknown as IncomingMessage;
    Object.assign(req, { headers: {}, socket: { remoteAddress: '127.0.0.1' } });
    return req;
  }

  function response() {
    const sent: { status?: number; body?: string } = {};
    const res = {
      headersSent: false,
      writeHead(status: number) {
        sent.status = status;
        this.headersSent = true;
      },
      setHeader() {},
      end(body: string) {
        sent.body = body;
      },
    };
    return { res: res as unknown as ServerResponse, sent };
  }

  function setup() {
    const { pool, statements } = recordingPool();
    const mails: OutgoingMail[] = [];
    const settings = {
      project: {
        auth: { siteUrl: 'http://127.0.0.1:5173', additionalRedirectUrls: [] },
      },
    } as unknown as StackSettings;
    const deps: AuthDeps = {
      ctx: { settings, pool, log: () => undefined },
      pool,
      externalUrl: 'http://127.0.0.1:54321/auth/v1',
      tokens: { issuer: '', jwtSecret: '', jwtExpiry: 3600 },
      limits: new AuthLimits(
        { signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30 },
        60_000,
      ),
      mail: async (m) => void mails.push(m),
    };
    const call = async (body: unknown, query = '') => {
      const { res, sent } = response();
      const url = new URL(`http://127.0.0.1:54321/auth/v1/resend${query}`);
      await resend(deps, { req: request(body), res, url, params: {} });
      return sent;
    };
    return { call, mails, statements };
  }

  it('is served, no longer refused as unsupported', () => {
    expect(matchRoute('POST', '/resend').kind).toBe('handler');
    expect(matchRoute('POST', '/otp').kind).toBe('unsupported');
  });

  it('re-sends the link to an unconfirmed account, with the redirect asked for', async () => {
    const { call, mails } = setup();
    const sent = await call(
      { type: 'signup', email: 'Waiting@Example.com' },
      '?redirect_to=http%3A%2F%2F127.0.0.1%3A5173%2Fdashboard',
    );
    expect(sent).toEqual({ status: 200, body: '{}' });
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[UNCONFIRMED, 'Confirm Your Signup']]);
    const link = new URL(/(http:\/\/\S+\/verify\?\S+)/.exec(mails[0].text ?? '')![1]);
    expect(link.searchParams.get('redirect_to')).toBe('http://127.0.0.1:5173/dashboard');
  });

  it('answers {} and sends nothing for an unknown or an already confirmed address', async () => {
    const { call, mails } = setup();
    expect(await call({ type: 'signup', email: 'nobody@example.com' })).toEqual({
      status: 200,
      body: '{}',
    });
    expect(await call({ type: 'signup', email: CONFIRMED })).toEqual({ status: 200, body: '{}' });
    expect(mails).toEqual([]);
  });

  it('answers 429 within max_frequency, for known and unknown addresses alike', async () => {
    const { call } = setup();
    for (const email of [UNCONFIRMED, 'nobody@example.com']) {
      await call({ type: 'signup', email });
      await expect(call({ type: 'signup', email })).rejects.toMatchObject({
        status: 429,
        code: 'over_email_send_rate_limit',
      });
    }
  });

  it("refuses with GoTrue's messages, and the types it does not serve clearly", async () => {
    const { call, statements } = setup();
    await expect(call({ email: UNCONFIRMED })).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Missing one of these types: signup, email_change, sms, phone_change',
    });
    await expect(call({ type: 'signup' })).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Type provided requires an email address',
    });
    await expect(call({ type: 'signup', email: 'not-an-address' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    for (const type of ['email_change', 'sms', 'phone_change']) {
      await expect(call({ type, email: UNCONFIRMED })).rejects.toMatchObject({
        status: 400,
        code: 'not_implemented',
        message: `Resending "${type}" (POST /auth/v1/resend) is not supported by the local stack (see local-stack/README.md)`,
      });
    }
    await expect(
      call({
        type: 'signup',
        email: UNCONFIRMED,
        code_challenge: 'x',
        code_challenge_method: 's256',
      }),
    ).rejects.toMatchObject({ status: 400, code: 'not_implemented' });
    expect(statements).toEqual([]);
  });
});
