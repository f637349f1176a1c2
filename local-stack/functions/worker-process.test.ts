import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { denoBinary, workerErrorStatus } from './index.ts';
import { UpstreamError } from './proxy.ts';
import { FunctionWorker, restartDelayMs, WORKER_V8_FLAGS } from './worker-process.ts';

describe('restartDelayMs', () => {
  it('restarts a worker that ran a while at once', () => {
    expect(restartDelayMs(0)).toBe(0);
  });

  it('doubles the pause while the worker keeps dying soon after start, up to 30 s', () => {
    expect([1, 2, 3, 4].map(restartDelayMs)).toEqual([250, 500, 1000, 2000]);
    expect(restartDelayMs(8)).toBe(30_000);
    expect(restartDelayMs(100)).toBe(30_000);
  });
});

describe('workerErrorStatus', () => {
  it('answers 503 with Retry-After when the worker refused the connection (request never sent)', () => {
    expect(workerErrorStatus(new UpstreamError('connect ECONNREFUSED', 'ECONNREFUSED'))).toEqual([
      503,
      { 'Retry-After': '1' },
    ]);
  });

  it('answers 500 when the worker was lost mid-request (it may have acted)', () => {
    expect(workerErrorStatus(new UpstreamError('socket hang up', 'ECONNRESET'))).toEqual([500, {}]);
    expect(workerErrorStatus(new Error('other'))).toEqual([500, {}]);
  });
});

describe('FunctionWorker supervision (real Deno)', () => {
  const dirs: string[] = [];
  const workers: FunctionWorker[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close()));
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  function worker(source = `Deno.serve(() => new Response(String(Deno.pid)));\n`) {
    const dir = mkdtempSync(path.join(tmpdir(), 'functions-worker-'));
    dirs.push(dir);
    const entrypoint = path.join(dir, 'index.ts');
    writeFileSync(entrypoint, source);
    const log: string[] = [];
    const w = new FunctionWorker({
      name: 'probe',
      entrypoint,
      denoPath: denoBinary(),
      denoDir: path.join(dir, 'deno'),
      env: { PATH: process.env.PATH ?? '' },
      bootTimeoutMs: 60_000,
      log: (m) => log.push(m),
    });
    workers.push(w);
    return { w, log };
  }

  const servedPid = async (port: number) =>
    Number(await (await fetch(`http://127.0.0.1:${port}/`)).text());

  it('starts a killed worker again by itself, before any request asks for it', async () => {
    const { w, log } = worker();
    const first = await servedPid(await w.port());
    expect(w.kill()).toBe(first);
    // No request is made: the supervisor alone must bring a new process up.
    await expect.poll(() => w.pid !== undefined && w.pid !== first, { timeout: 20_000 }).toBe(true);
    const second = await servedPid(await w.port());
    expect(second).not.toBe(first);
    expect(log.some((l) => l.includes(`worker ${first} exited (SIGKILL); restarting`))).toBe(true);
  }, 60_000);

  it("gives the function's isolate Supabase's user-worker heap: 256 MiB, 1 MiB semi-spaces", async () => {
    expect(WORKER_V8_FLAGS).toEqual(['--max-heap-size=256', '--max-semi-space-size=1']);
    const { w } = worker(
      `import v8 from 'node:v8';\n` +
        `Deno.serve(() => Response.json(v8.getHeapStatistics().heap_size_limit));\n`,
    );
    const port = await w.port();
    const limit = await (await fetch(`http://127.0.0.1:${port}/`)).json();
    expect(limit).toBe(256 * 1024 * 1024);
  }, 60_000);

  it('does not start a worker again after close()', async () => {
    const { w } = worker();
    await w.port();
    await w.close();
    await new Promise((r) => setTimeout(r, 500));
    expect(w.pid).toBeUndefined();
    await expect(w.port()).rejects.toThrow('closed');
  }, 60_000);
});
