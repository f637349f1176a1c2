// Conformance of the Edge Functions stand-in (/functions/v1): fixture functions run on real Deno,
// driven through supabase-js `functions.invoke` and plain fetch, on a stack of this file's own
// (the shared test stack serves only supabase/functions, these need tests/fixtures/functions).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ws from 'ws';
import { PUBLISHABLE_KEY } from '../../local-stack/config.ts';
import { signJwt } from '../../local-stack/jwt.ts';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/functions',
);

let stack: RunningStack | undefined;
let dataDir: string;
let liveDir: string;
let api: string;
let anonKey: string;
let supabase: SupabaseClient;
const workerPids = new Set<number>();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-functions-test-'));
  // A functions folder the reload test edits while the stack runs.
  liveDir = path.join(dataDir, 'live-functions');
  await mkdir(path.join(liveDir, 'live'), { recursive: true });
  await writeFile(path.join(liveDir, 'live/index.ts'), liveSource('v1'));
  const [apiPort, db, mailWeb, smtp] = await freePorts(4);
  stack = await startStack({
    dataDir,
    ports: { api: apiPort, db, mailWeb, smtp },
    seed: false,
    functionsDirs: [FIXTURES, liveDir],
    deliveryIntervalMs: 200,
    log: (service, message) => {
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
  api = stack.settings.apiUrl;
  anonKey = stack.settings.anonKey;
  supabase = createClient(api, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; the client builds its realtime part even if unused.
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const liveSource = (version: string) => `Deno.serve(() => new Response('${version}'));\n`;
const fn = (name: string) => `${api}/functions/v1/${name}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Echo {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string;
  env: Record<string, string | boolean | null>;
  supabaseJs: string;
}

describe('invoking a function', () => {
  it('runs the echo fixture with supabase-js, which imports npm:@supabase/supabase-js', async () => {
    const { data, error } = await supabase.functions.invoke<Echo>('echo', {
      body: { hello: 'world' },
      headers: { 'x-custom': 'yes' },
    });
    expect(error).toBeNull();
    expect(data!.method).toBe('POST');
    expect(data!.path).toBe('/echo');
    expect(JSON.parse(data!.body)).toEqual({ hello: 'world' });
    expect(data!.headers['content-type']).toMatch(/application\/json/);
    expect(data!.headers['x-custom']).toBe('yes');
    expect(data!.headers.authorization).toBe(`Bearer ${anonKey}`);
    expect(data!.supabaseJs).toBe('function');
  }, 60_000);

  it('passes method, sub-path and query through, and the function sees /<name>/<rest>', async () => {
    const { data, error } = await supabase.functions.invoke<Echo>('echo/a/b?x=1&y=two', {
      method: 'PUT',
      body: 'plain text',
    });
    expect(error).toBeNull();
    expect(data!.method).toBe('PUT');
    expect(data!.path).toBe('/echo/a/b');
    expect(data!.query).toEqual({ x: '1', y: 'two' });
    expect(data!.body).toBe('plain text');

    const res = await fetch(`${fn('echo')}/deep/path?q=%C3%A9`, { headers: bearer(anonKey) });
    expect(res.status).toBe(200);
    const got = (await res.json()) as Echo;
    expect(got.method).toBe('GET');
    expect(got.path).toBe('/echo/deep/path');
    expect(got.query).toEqual({ q: 'é' });
  });

  it('gives the function the SUPABASE_* variables, the stack extras and the folder .env', async () => {
    const { data } = await supabase.functions.invoke<Echo>('echo');
    expect(data!.env).toEqual({
      SUPABASE_URL: api, // the .env's SUPABASE_URL is skipped: reserved name
      hasAnonKey: true,
      hasServiceRoleKey: true,
      hasDbUrl: true,
      FIXTURE_GREETING: 'hello from .env',
      SMTP_PORT: String(stack!.settings.ports.smtp),
      SITE_URL: stack!.settings.project.auth.siteUrl,
    });
  });

  it('adds X-Forwarded-For (appended), X-Forwarded-Host and X-Forwarded-Proto', async () => {
    const res = await fetch(fn('echo'), {
      headers: { ...bearer(anonKey), 'X-Forwarded-For': '203.0.113.7' },
    });
    const { headers } = (await res.json()) as Echo;
    expect(headers['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
    expect(headers['x-forwarded-host']).toBe(new URL(api).host);
    expect(headers['x-forwarded-proto']).toBe('http');

    const direct = (await (await fetch(fn('echo'), { headers: bearer(anonKey) })).json()) as Echo;
    expect(direct.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('streams a large body through unchanged', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const res = await fetch(fn('echo-open'), { method: 'POST', body: big });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Echo).body.length).toBe(big.length);
  });

  it('refuses a body over the cap with 413 and keeps serving', async () => {
    const res = await fetch(fn('echo-open'), {
      method: 'POST',
      body: Buffer.alloc(20 * 1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await fetch(fn('echo-open'))).status).toBe(200);
  });

  it('answers 404 "Function not found" for an unknown function, a `_` folder and the bare mount', async () => {
    for (const url of [fn('nope'), fn('_shared'), `${api}/functions/v1/`]) {
      const res = await fetch(url, { method: 'POST', headers: bearer(anonKey) });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('Function not found');
    }
    const { error } = await supabase.functions.invoke('nope');
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect((error as FunctionsHttpError).context.status).toBe(404);
  });
});

describe('verify_jwt', () => {
  it('rejects a missing Authorization header with 401', async () => {
    const res = await fetch(fn('echo'), { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ msg: 'Error: Missing authorization header' });
  });

  it('rejects a token not signed with the project secret, a malformed one and an expired one', async () => {
    const foreign = await signJwt(
      { role: 'anon' },
      'another-secret-that-is-at-least-32-characters',
    );
    const expired = await signJwt(
      { role: 'authenticated', sub: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) - 60 },
      stack!.settings.jwtSecret,
    );
    for (const token of [foreign, 'not-a-jwt', expired]) {
      const res = await fetch(fn('echo'), { method: 'POST', headers: bearer(token) });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ msg: 'Invalid JWT' });
    }
    const { error } = await supabase.functions.invoke('echo', { headers: bearer(foreign) });
    expect((error as FunctionsHttpError).context.status).toBe(401);
  });

  it('rejects a non-Bearer scheme', async () => {
    const res = await fetch(fn('echo'), { headers: { Authorization: `Basic ${anonKey}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ msg: "Error: Auth header is not 'Bearer {token}'" });
  });

  it('accepts a signed-in user JWT, the service role key and the publishable key', async () => {
    const userJwt = await signJwt(
      { role: 'authenticated', sub: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + 600 },
      stack!.settings.jwtSecret,
    );
    for (const token of [userJwt, stack!.settings.serviceRoleKey, PUBLISHABLE_KEY]) {
      const res = await fetch(fn('echo'), { headers: bearer(token) });
      expect(res.status).toBe(200);
    }
  });

  it('lets OPTIONS through without a token so the function answers CORS itself', async () => {
    const res = await fetch(fn('echo'), { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves a verify_jwt = false function without any token', async () => {
    const res = await fetch(`${fn('echo-open')}/x?y=1`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    const got = (await res.json()) as Echo;
    expect(got.method).toBe('DELETE');
    expect(got.path).toBe('/echo-open/x');
  });
});

describe('workers', () => {
  it('stay warm: module state survives between requests (export default { fetch })', async () => {
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { data, error } = await supabase.functions.invoke<{ count: number; pid: number }>(
        'counter',
      );
      expect(error).toBeNull();
      counts.push(data!.count);
      workerPids.add(data!.pid);
    }
    expect(counts).toEqual([1, 2, 3]);
  });

  it('start again after the process dies', async () => {
    const before = (await (await fetch(fn('counter'), { headers: bearer(anonKey) })).json()) as {
      pid: number;
    };
    expect((await fetch(`${fn('counter')}/exit`, { headers: bearer(anonKey) })).status).toBe(200);
    // Wait until the old process is gone, then the next request boots a fresh one.
    await expect.poll(() => isAlive(before.pid), { timeout: 10_000 }).toBe(false);
    workerPids.delete(before.pid);
    const after = (await (await fetch(fn('counter'), { headers: bearer(anonKey) })).json()) as {
      count: number;
      pid: number;
    };
    expect(after.pid).not.toBe(before.pid);
    expect(after.count).toBe(1);
    workerPids.add(after.pid);
  });

  it('return 500 when the handler throws, and the same worker keeps serving (Deno.serve(options, handler))', async () => {
    const first = (await (await fetch(fn('throws'), { headers: bearer(anonKey) })).json()) as {
      pid: number;
    };
    const res = await fetch(`${fn('throws')}/boom`, { headers: bearer(anonKey) });
    expect(res.status).toBe(500);
    const { error } = await supabase.functions.invoke('throws/boom');
    expect((error as FunctionsHttpError).context.status).toBe(500);
    const again = await fetch(fn('throws'), { headers: bearer(anonKey) });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { pid: number }).pid).toBe(first.pid);
    workerPids.add(first.pid);
  });

  it('answer 503 BOOT_ERROR when the module fails to load, every time', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(fn('boot-error'), { method: 'POST', headers: bearer(anonKey) });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        code: 'BOOT_ERROR',
        message: 'Worker failed to boot (please check logs)',
      });
    }
    expect((await fetch(fn('echo-open'))).status).toBe(200);
  });

  it('handle 10 requests at once (each waits until all 10 are inside the handler)', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => supabase.functions.invoke<{ met: boolean }>('barrier?n=10')),
    );
    for (const { data, error } of responses) {
      expect(error).toBeNull();
      expect(data).toEqual({ met: true });
    }
  });

  it('reload a function after its source changes', async () => {
    const live = async () => (await fetch(fn('live'), { headers: bearer(anonKey) })).text();
    expect(await live()).toBe('v1');
    await writeFile(path.join(liveDir, 'live/index.ts'), liveSource('v2'));
    await expect.poll(live, { timeout: 15_000 }).toBe('v2');
  });
});

describe('scheduled calls', () => {
  it('POSTs /functions/v1/forms/_deliver on the interval with the service-role bearer', async () => {
    const calls = async () =>
      (await (await fetch(`${fn('forms')}/_calls`)).json()) as {
        method: string;
        role: string | null;
      }[];
    await expect
      .poll(async () => (await calls()).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    for (const call of await calls())
      expect(call).toEqual({ method: 'POST', role: 'service_role' });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('stopping the stack', () => {
  it('kills every Deno worker', async () => {
    expect(workerPids.size).toBeGreaterThanOrEqual(2);
    for (const pid of workerPids) expect(isAlive(pid)).toBe(true);
    await stack!.stop();
    stack = undefined;
    for (const pid of workerPids) expect(isAlive(pid)).toBe(false);
  });
});
