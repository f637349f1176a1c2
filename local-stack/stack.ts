// Starts and stops the whole Docker-free local stack: PostgreSQL, the mail catcher, the
// stand-in Auth/REST/Storage/Realtime/Functions services and the gateway that mounts them.
import type { Server } from 'node:http';
import net from 'node:net';
import pg from 'pg';
import {
  DEFAULT_PORTS,
  makeSettings,
  type AuthRateLimits,
  type StackPorts,
  type StackSettings,
} from './config.ts';
import type { StackContext } from './context.ts';
import { LOCAL_FORMS_PROXY_SECRET } from './forms-proxy.ts';
import { createGateway } from './gateway.ts';
import { closable, within } from './shutdown.ts';
import { logConnectionErrors } from './postgres/pool-errors.ts';
import { startPostgres } from './postgres/server.ts';
import { applyMigrations, applySeed, bootstrap } from './postgres/migrate.ts';
import { startMailCatcher } from './mail/index.ts';
import { createAuthService } from './auth/index.ts';
import { createRestService } from './rest/index.ts';
import { createStorageService } from './storage/index.ts';
import { createRealtimeService } from './realtime/index.ts';
import { createFunctionsService } from './functions/index.ts';

export interface StackOptions {
  dataDir: string;
  ports?: Partial<StackPorts>;
  /** Wipe the database first (then migrations and seed run again). */
  reset?: boolean;
  /** Run supabase/seed.sql on a new database (default true). */
  seed?: boolean;
  supabaseDir?: string;
  /** Extra Edge Function folders to serve (each `<name>/index.ts`, optional `config.toml`). */
  functionsDirs?: string[];
  /** Interval of the scheduled `POST /functions/v1/forms/_deliver` (default 60 s). */
  deliveryIntervalMs?: number;
  /** Log sink; default prints nothing. */
  log?: (service: string, message: string) => void;
  /**
   * Replaces budgets of config.toml's `[auth.rate_limit]` (per client address). For test suites
   * only, which sign up and sign in many users from one address; `npm start` keeps config.toml's.
   */
  authRateLimits?: Partial<AuthRateLimits>;
  /**
   * Extra environment of the Edge Functions (e.g. the test-only `FORMS_RATE_LIMITS=off` of the
   * benchmarks); `npm start` and the tests pass none.
   */
  functionEnv?: Record<string, string>;
  /**
   * Postgres settings beyond the stand-in's own (e.g. `shared_buffers` of a bigger Supabase
   * compute size, for a benchmark that says so); `npm start` and the tests pass none.
   */
  postgresSettings?: Record<string, string>;
}

export interface RunningStack {
  settings: StackSettings;
  /** Superuser connection pool, for tests and tools (never exposed over HTTP). */
  pool: pg.Pool;
  /** Stops and restarts the mail catcher (on the same ports), to test delivery retries. */
  mail: { stop(): Promise<void>; start(): Promise<void> };
  /**
   * Stops (fast shutdown) and starts Postgres again on the same folder and port, for fault tests:
   * every service reconnects by itself once it is back.
   */
  postgres: { stop(): Promise<void>; start(): Promise<void> };
  /** Kills a function's Deno worker as a crash would (fault tests); returns the killed pid. */
  functions: { kill(name: string): number | undefined };
  /**
   * Stops everything, each step in a bounded time (see STOP_STEP_MS): clients connected to the
   * gateway, the realtime server or the mail catcher are disconnected, never waited for.
   */
  stop(): Promise<void>;
  /**
   * For a forced exit (a second Ctrl-C): kills the Deno workers, shuts Postgres down immediately
   * and waits briefly for both to be gone, so that no child process keeps a port after the exit.
   */
  abort(): Promise<void>;
}

/**
 * The longest each step of stop() may take before the next one starts anyway. Postgres bounds
 * its own step (fast shutdown, then immediate, then kill: postgres/server.ts).
 */
const STOP_STEP_MS = {
  /** Stop listening, end HTTP connections, close WebSockets (clients get 1 s to answer). */
  gateway: 2_000,
  functions: 3_000,
  realtime: 4_000,
  rest: 2_000,
  storage: 2_000,
  mail: 2_000,
  pool: 2_000,
} as const;
/** How long the gateway waits for the realtime clients to answer its close frame. */
const CLIENT_CLOSE_GRACE_MS = 1_000;

/** Finds `count` free TCP ports on 127.0.0.1. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      return new Promise<net.Server>((resolve, reject) => {
        const s = net.createServer();
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => resolve(s));
      });
    }),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

function listen(server: Server, port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const ports: StackPorts = { ...DEFAULT_PORTS, ...options.ports };
  const settings = makeSettings({
    ports,
    dataDir: options.dataDir,
    supabaseDir: options.supabaseDir,
    functionsDirs: options.functionsDirs,
    deliveryIntervalMs: options.deliveryIntervalMs,
    authRateLimits: options.authRateLimits,
  });
  const log = options.log ?? (() => undefined);
  /** What stop() undoes, in the order it was started: [name, step, longest wait or none]. */
  const stops: [string, () => Promise<void>, number | null][] = [];
  // One shutdown however often stop() is called: a second call waits for the first instead of
  // reversing the list mid-way and stopping services twice.
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const [name, stop, limitMs] of [...stops].reverse()) {
        const started = Date.now();
        const step = stop().catch((e) => log('stack', `stop ${name}: ${e}`));
        if (limitMs === null) await step;
        else if (!(await within(limitMs, step))) {
          log('stack', `${name} did not stop within ${limitMs} ms; going on`);
          continue;
        }
        log('stack', `${name} stopped in ${Date.now() - started} ms`);
      }
    })());
  const aborts: (() => Promise<void>)[] = [];
  const abort = async () => {
    await Promise.all(aborts.map((a) => a().catch(() => undefined)));
  };

  try {
    const postgres = await startPostgres({
      dataDir: options.dataDir,
      port: ports.db,
      reset: options.reset,
      settings: options.postgresSettings,
      log: (m) => log('postgres', m),
    });
    stops.push(['postgres', () => postgres.stop(), null]);
    aborts.push(() => postgres.abort());

    const pool = new pg.Pool({ connectionString: settings.dbUrl, max: 20 });
    logConnectionErrors(pool, (m) => log('postgres', m));
    stops.push(['pool', () => pool.end(), STOP_STEP_MS.pool]);
    await bootstrap(pool);
    const applied = await applyMigrations(pool, settings.supabaseDir);
    if (applied.length) log('postgres', `applied migrations ${applied.join(', ')}`);
    if (postgres.created && options.seed !== false) {
      await applySeed(pool, settings.project.seedPaths);
      log('postgres', 'seeded');
    }
    // Local development: webhooks may target this machine (the database's half of the switch;
    // WEBHOOKS_ALLOW_LOCAL below is the function's). Never done on Supabase.
    await pool.query(`do $$ begin
      if to_regclass('private.webhook_settings') is not null then
        update private.webhook_settings set allow_local = true;
      end if; end $$`);

    const startMail = () =>
      startMailCatcher({
        host: settings.host,
        webPort: ports.mailWeb,
        smtpPort: ports.smtp,
        log: (m) => log('mail', m),
      });
    let mail: Awaited<ReturnType<typeof startMail>> | null = await startMail();
    stops.push(['mail', async () => mail?.close(), STOP_STEP_MS.mail]);
    const mailControl = {
      async stop() {
        await mail?.close();
        mail = null;
      },
      async start() {
        mail ??= await startMail();
      },
    };

    const ctx: StackContext = { settings, pool, log };
    const auth = createAuthService(ctx);
    const rest = createRestService(ctx);
    stops.push(['rest', async () => rest.close?.(), STOP_STEP_MS.rest]);
    const storage = await createStorageService(ctx, { fresh: postgres.created });
    stops.push(['storage', async () => storage.close?.(), STOP_STEP_MS.storage]);
    const realtime = await createRealtimeService(ctx);
    stops.push(['realtime', () => realtime.close(), STOP_STEP_MS.realtime]);
    const functions = createFunctionsService(ctx, {
      env: {
        SMTP_HOST: settings.host,
        SMTP_PORT: String(ports.smtp),
        MAIL_PROVIDER: 'smtp',
        SITE_URL: settings.project.auth.siteUrl,
        // The /api/forms rewrites of the gateway and of Vite's dev server send it (forms-proxy.ts).
        FORMS_PROXY_SECRET: LOCAL_FORMS_PROXY_SECRET,
        WEBHOOKS_ALLOW_LOCAL: 'on',
        ...options.functionEnv,
      },
    });
    stops.push(['functions', async () => functions.close?.(), STOP_STEP_MS.functions]);
    aborts.push(async () => functions.abort());

    const gateway = createGateway(
      { auth, rest, storage, functions, realtime },
      { anonKey: settings.anonKey, serviceRoleKey: settings.serviceRoleKey },
      (m) => log('gateway', m),
    );
    const gatewaySockets = closable(gateway);
    await listen(gateway, ports.api, settings.host);
    // First of all: no new requests, HTTP connections (keep-alive ones too) ended at once,
    // WebSockets closed with a close frame; what is left after the grace is cut.
    stops.push([
      'gateway',
      async () => {
        await Promise.all([
          gatewaySockets.close(CLIENT_CLOSE_GRACE_MS),
          realtime.disconnect(CLIENT_CLOSE_GRACE_MS),
        ]);
      },
      STOP_STEP_MS.gateway,
    ]);
    return {
      settings,
      pool,
      mail: mailControl,
      postgres: { stop: () => postgres.halt(), start: () => postgres.resume() },
      functions: { kill: (name) => functions.killWorker(name) },
      stop: stopAll,
      abort,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
