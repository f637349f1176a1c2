// /recover must not tell known addresses from unknown ones by its answer time: the same database
// work for both, and the mail sent only after the answer. Timing itself is not asserted (it
// would be flaky); the mechanism that makes it even is.
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { StackSettings } from '../config.ts';
import type { AuthDeps } from './deps.ts';
import { recover } from './handlers/recover.ts';
import { AuthLimits } from './limits.ts';
import { issueRecovery } from './recovery.ts';

const KNOWN = 'known@example.com';
const USER_ID = '11111111-1111-4111-8111-111111111111';

/** A pool that records every statement and knows one account. */
function recordingPool() {
  const statements: { sql: string; params: unknown[] }[] = [];
  const client = {
    async query(sql: string, params: unknown[] = []) {
      statements.push({ sql, params });
      if (/^\s*select id from auth\.users/.test(sql))
        return { rows: params[0] === KNOWN ? [{ id: USER_ID }] : [] };
      return { rows: [] };
    },
    release() {},
  };
  const pool = { connect: async () => client } as unknown as pg.Pool;
  return { pool, statements };
}

/** The shape of a statement list: SQL text and parameter types, not the values. */
const shape = (statements: { sql: string; params: unknown[] }[]) =>
  statements.map((s) => [s.sql, s.params.map((p) => typeof p)]);

describe('issueRecovery', () => {
  it('runs the same statements for an unknown address as for a known one', async () => {
    const known = recordingPool();
    const unknown = recordingPool();
    const issued = await issueRecovery(known.pool, KNOWN);
    const none = await issueRecovery(unknown.pool, 'nobody@example.com');

    expect(issued?.userId).toBe(USER_ID);
    expect(issued?.otp).toMatch(/^\d{6}$/);
    expect(none).toBeNull();
    expect(shape(unknown.statements)).toEqual(shape(known.statements));
    // A token is written for the account only: the unknown address's statements aim at an id
    // no account has.
    const updateKnown = known.statements.find((s) => /^\s*update auth\.users/.test(s.sql))!;
    const updateUnknown = unknown.statements.find((s) => /^\s*update auth\.users/.test(s.sql))!;
    expect(updateKnown.params[0]).toBe(USER_ID);
    expect(updateUnknown.params[0]).not.toBe(USER_ID);
    expect(known.statements.map((s) => s.sql.trim().split(/\s+/)[0])).toEqual([
      'begin',
      'select',
      'update',
      'delete',
      'insert',
      'commit',
    ]);
  });
});

describe('POST /recover', () => {
  function request(email: string) {
    const req = Readable.from([
      Buffer.from(JSON.stringify({ email })),
    ]) as unknown as IncomingMessage;
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

  function deps(pool: pg.Pool, mail: AuthDeps['mail']): AuthDeps {
    const settings = {
      project: {
        auth: { siteUrl: 'http://127.0.0.1:5173', additionalRedirectUrls: [] },
      },
    } as unknown as StackSettings;
    return {
      ctx: { settings, pool, log: () => undefined },
      pool,
      externalUrl: 'http://127.0.0.1:54321/auth/v1',
      tokens: { issuer: '', jwtSecret: '', jwtExpiry: 3600 },
      limits: new AuthLimits(
        { signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30 },
        1000,
      ),
      mail,
    };
  }

  it('answers 200 {} before the mail to a known address is sent', async () => {
    const { pool } = recordingPool();
    let release!: () => void;
    const mails: string[] = [];
    const mail: AuthDeps['mail'] = (message) => {
      mails.push(message.to);
      return new Promise((resolve) => (release = resolve));
    };
    const { res, sent } = response();
    const url = new URL('http://127.0.0.1:54321/auth/v1/recover');
    const handled = recover(deps(pool, mail), { req: request(KNOWN), res, url, params: {} });

    // The mail is still in flight (it never completes until released), yet the answer is out.
    await expect.poll(() => mails).toEqual([KNOWN]);
    expect(sent).toEqual({ status: 200, body: '{}' });
    release();
    await handled;
  });

  it('answers an unknown address the same way and sends nothing', async () => {
    const { pool } = recordingPool();
    const mails: string[] = [];
    const { res, sent } = response();
    const url = new URL('http://127.0.0.1:54321/auth/v1/recover');
    await recover(
      deps(pool, async (m) => void mails.push(m.to)),
      { req: request('nobody@example.com'), res, url, params: {} },
    );
    expect(sent).toEqual({ status: 200, body: '{}' });
    expect(mails).toEqual([]);
  });
});
