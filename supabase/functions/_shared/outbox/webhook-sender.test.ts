// @vitest-environment node
// The sender against a real HTTP receiver on 127.0.0.1: what reaches it, and what never does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendWebhook, type Resolver } from './webhook-sender.ts';

type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let reply: Reply;
let received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      reply(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => server.close(r)));
beforeEach(() => {
  received = [];
  reply = (_req, res) => res.end('ok');
});

/** A name that "resolves" to the receiver, as a rebinding DNS answer would. */
const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

describe('sendWebhook', () => {
  it('posts the body and headers and reports a 2xx as delivered', async () => {
    const r = await sendWebhook(
      `http://127.0.0.1:${port}/hook`,
      '{"a":1}',
      { 'x-test': '1' },
      {
        allowLocal: true,
      },
    );
    expect(r).toMatchObject({ ok: true, statusCode: 200, error: null, excerpt: 'ok' });
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toBe('{"a":1}');
    expect(received[0]!.headers['x-test']).toBe('1');
    expect(received[0]!.headers['content-type']).toBe('application/json');
  });

  it('refuses a loopback URL outside local development without connecting', async () => {
    const r = await sendWebhook(`http://127.0.0.1:${port}/hook`, '{}', {}, { allowLocal: false });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/^Refused:/);
    expect(received).toHaveLength(0);
  });

  it('refuses a public-looking name that resolves to a private address (DNS rebinding)', async () => {
    // https would be refused anyway on this plain-http receiver; the refusal must come first.
    const r = await sendWebhook(
      `https://hooks.example.com:${port}/hook`,
      '{}',
      {},
      {
        allowLocal: false,
        resolve: toLoopback,
      },
    );
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/Refused: hooks\.example\.com resolves to 127\.0\.0\.1/);
    expect(received).toHaveLength(0);
  });

  it('connects to exactly the address it checked', async () => {
    // The resolver says loopback; allowed locally, the request must land on this receiver.
    const r = await sendWebhook(
      `http://receiver.test:${port}/hook`,
      '{}',
      {},
      {
        allowLocal: true,
        resolve: toLoopback,
      },
    );
    expect(r.ok).toBe(true);
    expect(received[0]!.headers.host).toBe(`receiver.test:${port}`);
  });

  it('does not follow redirects', async () => {
    reply = (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest' });
      res.end();
    };
    const r = await sendWebhook(`http://127.0.0.1:${port}/hook`, '{}', {}, { allowLocal: true });
    expect(r).toMatchObject({ ok: false, statusCode: 302 });
    expect(r.error).toMatch(/not followed/);
    expect(received).toHaveLength(1);
  });

  it('records a failure status with the start of the answer, capped', async () => {
    reply = (_req, res) => {
      res.writeHead(500);
      res.end('E'.repeat(100_000));
    };
    const r = await sendWebhook(
      `http://127.0.0.1:${port}/hook`,
      '{}',
      {},
      {
        allowLocal: true,
        maxResponseBytes: 1000,
      },
    );
    expect(r).toMatchObject({ ok: false, statusCode: 500, error: 'HTTP 500' });
    expect(r.excerpt!.length).toBeLessThanOrEqual(500);
  });

  it('gives up on a receiver that never answers', async () => {
    reply = () => undefined;
    const r = await sendWebhook(
      `http://127.0.0.1:${port}/hook`,
      '{}',
      {},
      {
        allowLocal: true,
        timeoutMs: 200,
      },
    );
    expect(r).toMatchObject({ ok: false, statusCode: null });
    expect(r.error).toMatch(/No answer within 200 ms/);
  });
});
