import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScheduler, type Scheduler } from './scheduler.ts';

let server: http.Server | undefined;
let scheduler: Scheduler | undefined;
afterEach(async () => {
  scheduler?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

async function listen(status: number) {
  const seen: { method?: string; url?: string; auth?: string; body: string }[] = [];
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
      res.writeHead(status).end('{}');
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { seen, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('startScheduler', () => {
  it('POSTs to each scheduled URL repeatedly with the given headers', async () => {
    const { seen, base } = await listen(200);
    const log = vi.fn();
    scheduler = startScheduler(
      [
        {
          name: 'forms',
          method: 'POST',
          url: `${base}/functions/v1/forms/_deliver`,
          intervalMs: 20,
          headers: { authorization: 'Bearer k' },
        },
      ],
      log,
    );
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2));
    expect(seen[0]).toEqual({
      method: 'POST',
      url: '/functions/v1/forms/_deliver',
      auth: 'Bearer k',
      body: '{}',
    });
    expect(log).not.toHaveBeenCalled();
  });

  it('stays quiet about 404 (function not there yet) but logs other failures', async () => {
    const { seen, base } = await listen(404);
    const log = vi.fn();
    scheduler = startScheduler(
      [{ name: 'x', method: 'POST', url: `${base}/a`, intervalMs: 20, headers: {} }],
      log,
    );
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2));
    expect(log).not.toHaveBeenCalled();
    scheduler.close();

    const failing = startScheduler(
      [
        {
          name: 'x',
          method: 'POST',
          url: `${base.replace(/:\d+$/, ':1')}/a`,
          intervalMs: 20,
          headers: {},
        },
      ],
      log,
    );
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    failing.close();
  });
});
