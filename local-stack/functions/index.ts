// Edge Functions stand-in mounted at /functions/v1: runs supabase/functions/<name>/index.ts on
// real Deno, one warm worker process per function, behind the CLI router's verify_jwt gate.
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { PROJECT_DIR } from '../config.ts';
import type { HttpService, StackContext } from '../context.ts';
import { sendJson } from '../http.ts';
import { Router } from '../router.ts';
import { discoverFunctions, type ServedFunction } from './discovery.ts';
import { functionEnvironment } from './environment.ts';
import { BodyLimitError, proxyToWorker, UpstreamError } from './proxy.ts';
import { startScheduler, type ScheduledCall } from './scheduler.ts';
import { watchFolders } from './watch.ts';
import { rejectUnauthorized } from './verify-jwt.ts';
import { BootError, FunctionWorker, killAllWorkers } from './worker-process.ts';

export interface FunctionsServiceOptions {
  /** Extra environment for every function (e.g. the mail catcher's SMTP_HOST/SMTP_PORT, SITE_URL). */
  env?: Record<string, string>;
  /** Largest request body forwarded to a function. */
  maxBodyBytes?: number;
  /** How long a worker may take to boot (first boots download npm packages). */
  bootTimeoutMs?: number;
  /** Timed calls; default: the form endpoint's delivery retries. */
  schedules?: ScheduledCall[];
}

export interface FunctionsService extends HttpService {
  /**
   * Kills a function's running worker as a crash would, for fault tests; the supervisor starts it
   * again. Returns the killed process id, or undefined when that function has no running worker.
   */
  killWorker(name: string): number | undefined;
  /** For a forced exit: SIGKILLs every worker at once; resolves once they are gone (≤ 1 s). */
  abort(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
const DEFAULT_BOOT_TIMEOUT_MS = 120_000;
/** How long an oversized body is drained before the 413 is sent anyway. */
const DRAIN_WAIT_MS = 2_000;

/** The Deno binary installed by the npm package `deno`, else one on PATH. */
export function denoBinary(): string {
  const bundled = path.join(
    PROJECT_DIR,
    'node_modules',
    'deno',
    process.platform === 'win32' ? 'deno.exe' : 'deno',
  );
  return existsSync(bundled) ? bundled : 'deno';
}

/** The form endpoint retries e-mails on a timer; hosted Supabase does this with pg_cron + pg_net. */
function defaultSchedules(ctx: StackContext): ScheduledCall[] {
  const { apiUrl, serviceRoleKey, deliveryIntervalMs } = ctx.settings;
  return [
    {
      name: 'forms',
      method: 'POST',
      url: `${apiUrl}/functions/v1/forms/_deliver`,
      intervalMs: deliveryIntervalMs,
      headers: { authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey },
    },
    {
      // Per-form retention rules: the SQL function pg_cron runs on Supabase, called through the
      // REST API (20261124170000_autoresponder_retention.sql).
      name: 'retention',
      method: 'POST',
      url: `${apiUrl}/rest/v1/rpc/sweep_retention`,
      intervalMs: deliveryIntervalMs,
      headers: { authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey },
    },
  ];
}

/**
 * A worker lost mid-request answers 500 as Supabase's runtime does (the function may have acted);
 * one that refused the connection never saw the request, so it is safe to send again once the
 * supervisor has restarted the worker: 503 with Retry-After.
 */
export function workerErrorStatus(err: unknown): [number, Record<string, string>] {
  if (err instanceof UpstreamError && err.code === 'ECONNREFUSED')
    return [503, { 'Retry-After': '1' }];
  return [500, {}];
}

/** `/<name>` and everything below it go to the function `<name>` (the name as sent). */
const routes = new Router<'function'>().on(['/:name', '/:name/*'], { all: 'function' });

const text = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, {
    'Content-Type': 'text/plain',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
};

export function createFunctionsService(
  ctx: StackContext,
  options: FunctionsServiceOptions = {},
): FunctionsService {
  const { settings } = ctx;
  const log = (message: string) => ctx.log('functions', message);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const denoPath = denoBinary();
  // Inside the data folder: persists across restarts, and parallel stacks never share its locks.
  const denoDir = path.join(settings.dataDir, 'deno');
  const workers = new Map<
    string,
    { entrypoint: string; functionsDir: string; worker: FunctionWorker }
  >();
  let closed = false;

  function workerFor(fn: ServedFunction): FunctionWorker {
    const known = workers.get(fn.name);
    if (known && known.entrypoint === fn.entrypoint) return known.worker;
    if (known) void known.worker.close();
    const worker = new FunctionWorker({
      name: fn.name,
      entrypoint: fn.entrypoint,
      denoPath,
      denoDir,
      env: functionEnvironment({
        settings,
        functionsDir: fn.functionsDir,
        extraEnv: options.env ?? {},
        log,
      }),
      bootTimeoutMs: options.bootTimeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS,
      log,
    });
    workers.set(fn.name, { entrypoint: fn.entrypoint, functionsDir: fn.functionsDir, worker });
    return worker;
  }

  const scheduler = startScheduler(options.schedules ?? defaultSchedules(ctx), log);

  // The folders are listed once and again after a change below them (the watcher), not on every
  // request: a listing costs several file-system calls on the request path.
  let served: Map<string, ServedFunction> | undefined;
  const discover = () =>
    (served = discoverFunctions({
      supabaseDir: settings.supabaseDir,
      projectFunctions: settings.project.functions,
      extraDirs: settings.functionsDirs,
    }));
  function servedFunction(name: string): ServedFunction | undefined {
    const known = (served ?? discover()).get(name);
    // A miss, or an entrypoint removed a moment ago, is checked against a fresh listing.
    if (known && existsSync(known.entrypoint)) return known;
    return discover().get(name);
  }

  // An edited function (or its .env, or _shared code) gets a fresh worker on its next request.
  const folders = [path.join(settings.supabaseDir, 'functions'), ...settings.functionsDirs];
  const watcher = watchFolders(
    folders,
    (dir) => {
      served = undefined;
      for (const [name, entry] of workers) {
        if (entry.functionsDir !== dir) continue;
        log(`${name}: source changed, reloading`);
        workers.delete(name);
        void entry.worker.close();
      }
    },
    log,
  );

  async function handle(req: IncomingMessage, res: ServerResponse, subPath: string, url: URL) {
    const match = routes.match(req.method ?? 'GET', subPath);
    const name = match.kind === 'found' ? (match.params.name ?? '') : '';
    const fn = name ? servedFunction(name) : undefined;
    if (!fn || closed) return text(res, 404, 'Function not found');

    if (fn.verifyJwt && req.method !== 'OPTIONS') {
      const msg = await rejectUnauthorized(req, settings.jwtSecret);
      if (msg) return sendJson(res, 401, { msg });
    }
    const declared = Number(req.headers['content-length']);
    if (declared > maxBodyBytes) return tooLarge(req, res);

    const worker = workerFor(fn);
    let port: number;
    try {
      port = await worker.port();
    } catch (err) {
      if (!(err instanceof BootError)) throw err;
      log(err.message);
      return sendJson(res, 503, {
        code: 'BOOT_ERROR',
        message: 'Worker failed to boot (please check logs)',
      });
    }
    try {
      await proxyToWorker({
        req,
        res,
        port,
        agent: worker.agent,
        targetPath: subPath + url.search,
        maxBodyBytes,
      });
    } catch (err) {
      if (err instanceof BodyLimitError) return tooLarge(req, res);
      log(`${fn.name}: ${(err as Error).message}`);
      const [status, headers] = workerErrorStatus(err);
      sendJson(
        res,
        status,
        { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
        headers,
      );
    }
  }

  function tooLarge(req: IncomingMessage, res: ServerResponse) {
    const answer = () =>
      sendJson(
        res,
        413,
        { code: 'PAYLOAD_TOO_LARGE', message: `Request body exceeds ${maxBodyBytes} bytes` },
        { Connection: 'close' },
      );
    // Closing with unread body bytes resets the connection and the client loses the 413, so
    // answer once the body is drained (or after a moment, for a client that never finishes).
    req.resume();
    if (req.readableEnded) return answer();
    const timer = setTimeout(answer, DRAIN_WAIT_MS);
    req.once('end', () => {
      clearTimeout(timer);
      answer();
    });
    req.once('close', () => clearTimeout(timer));
  }

  return {
    handle,
    killWorker: (name) => workers.get(name)?.worker.kill(),
    async abort() {
      closed = true;
      scheduler.close();
      watcher.close();
      for (const { worker } of workers.values()) worker.abandon();
      await killAllWorkers(1_000);
    },
    async close() {
      closed = true;
      scheduler.close();
      watcher.close();
      await Promise.all([...workers.values()].map(({ worker }) => worker.close()));
      workers.clear();
    },
  };
}
