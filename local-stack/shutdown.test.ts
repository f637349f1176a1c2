import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closable, within } from './shutdown.ts';

const closed = (socket: Socket) => new Promise<void>((r) => socket.once('close', () => r()));

async function serverWithClients() {
  const server = http.createServer((req, res) => {
    if (req.url === '/slow') return; // never answered
    res.end('ok');
  });
  server.on('upgrade', () => undefined); // holds upgraded sockets, as a WebSocket server does
  const sockets = closable(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  const agent = new http.Agent({ keepAlive: true });
  const idle = await new Promise<Socket>((resolve) => {
    const req = http.get({ port, host: '127.0.0.1', path: '/', agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(req.socket!));
    });
  });
  const waiting = await new Promise<Socket>((resolve) => {
    const req = http.get({ port, host: '127.0.0.1', path: '/slow' });
    req.on('error', () => undefined);
    req.once('socket', (s) => s.once('connect', () => resolve(s)));
  });
  const upgraded = await new Promise<Socket>((resolve) => {
    const req = http.get({
      port,
      host: '127.0.0.1',
      headers: { connection: 'upgrade', upgrade: 'websocket' },
    });
    req.on('error', () => undefined);
    req.once('socket', (s) => s.once('connect', () => setTimeout(() => resolve(s), 50)));
  });
  return { server, sockets, idle, waiting, upgraded };
}

describe('closable', () => {
  it('ends idle and active HTTP connections at once, upgraded sockets after the grace', async () => {
    const { sockets, idle, waiting, upgraded } = await serverWithClients();
    const started = Date.now();
    const upgradedClosedAt = closed(upgraded).then(() => Date.now());
    const done = sockets.close(300);
    await Promise.all([closed(idle), closed(waiting)]);
    expect(Date.now() - started).toBeLessThan(1_000);
    await done;
    expect((await upgradedClosedAt) - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('cuts everything at once with no grace', async () => {
    const { sockets, upgraded } = await serverWithClients();
    const started = Date.now();
    await Promise.all([sockets.close(0), closed(upgraded)]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('within', () => {
  it('says whether the work finished in time; a failure counts as finished', async () => {
    expect(await within(100, Promise.resolve())).toBe(true);
    expect(await within(100, Promise.reject(new Error('x')))).toBe(true);
    expect(await within(50, new Promise(() => undefined))).toBe(false);
  });
});
