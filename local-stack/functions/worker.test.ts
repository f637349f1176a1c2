// The Deno bootstrap (worker.ts) provides EdgeRuntime.waitUntil as Supabase's Edge Runtime does:
// the function answers at once, and the work it handed over still runs to the end afterwards.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary } from './index.ts';
import { FunctionWorker } from './worker-process.ts';

// The function hands a two-step task to waitUntil and answers; the task's first request is held
// by the test until the answer has arrived, so the answer cannot have waited for the task.
const FUNCTION = `
Deno.serve((req) => {
  const hook = new URL(req.url).searchParams.get('hook');
  EdgeRuntime.waitUntil((async () => {
    await (await fetch(hook + '/started')).text();
    await (await fetch(hook + '/done')).text();
  })());
  return new Response('answered');
});
`;

describe('EdgeRuntime.waitUntil in the local functions runner (real Deno)', () => {
  let dir: string;
  let worker: FunctionWorker;
  let hooks: http.Server;
  const events: string[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    hooks = http.createServer((req, res) => {
      events.push(req.url ?? '');
      if (req.url === '/started') void released.then(() => res.end('go on'));
      else res.end('ok');
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(path.join(tmpdir(), 'functions-wait-until-'));
    const entrypoint = path.join(dir, 'index.ts');
    writeFileSync(entrypoint, FUNCTION);
    worker = new FunctionWorker({
      name: 'wait-until-probe',
      entrypoint,
      denoPath: denoBinary(),
      denoDir: path.join(dir, 'deno'),
      env: { PATH: process.env.PATH ?? '' },
      bootTimeoutMs: 60_000,
      log: () => undefined,
    });
  }, 90_000);

  afterAll(async () => {
    release();
    await worker?.close();
    await new Promise((resolve) => hooks?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers before the handed-over work ends, and the work still completes', async () => {
    const port = await worker.port();
    const hook = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
    const res = await fetch(`http://127.0.0.1:${port}/?hook=${encodeURIComponent(hook)}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('answered');
    // The task is parked on its first step: it has not finished.
    expect(events).not.toContain('/done');

    release();
    const deadline = Date.now() + 20_000;
    while (!events.includes('/done') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(events).toEqual(['/started', '/done']);
  }, 60_000);
});
