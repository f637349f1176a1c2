// One long-lived Deno process serving one Edge Function: started on first use, kept warm,
// supervised (started again at once after it dies, with a growing pause if it keeps dying soon
// after start), and killed with the stack (also when the stack's process exits).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WORKER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.ts');
const READY_MARKER = '@@tinyback-functions-worker-ready@@';

/**
 * Each function's V8 heap, set as Supabase's edge-runtime sets a user worker's: a 256 MiB limit
 * (`heap_limits(0, memory_limit)` with SUPABASE_RESOURCE_LIMIT_MEM_MB = 256, crates/base/src/
 * runtime/mod.rs), and the young generation V8 13.0 — edge-runtime's V8 (rusty_v8 130.0.7) —
 * derives from that limit: 1 MiB semi-spaces. This Deno's newer V8 would derive 8 MiB from the same
 * limit, and 16 MiB without one, so short-lived buffers (a streamed upload's chunks) would wait far
 * longer for a collection here than on Supabase. Measured by counting scavenges of the same
 * allocations: V8 13.0 with a 256 MiB heap 401, with 1 MiB semi-spaces 399; V8 15 with 1 MiB 442.
 */
export const WORKER_V8_FLAGS = ['--max-heap-size=256', '--max-semi-space-size=1'];

/** The function's module failed to load or never registered a handler. */
export class BootError extends Error {}

/** A worker that dies sooner than this after it was ready counts as crash-looping. */
const QUICK_EXIT_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * How long to wait before restarting a worker that died: at once after a worker that ran a while,
 * then 250 ms, 500 ms, … up to 30 s while it keeps dying within QUICK_EXIT_MS of being ready, so a
 * function that crashes at every request cannot keep a core busy booting Deno.
 */
export function restartDelayMs(quickExitsInARow: number): number {
  if (quickExitsInARow <= 0) return 0;
  return Math.min(FIRST_RESTART_DELAY_MS * 2 ** (quickExitsInARow - 1), MAX_RESTART_DELAY_MS);
}

export interface WorkerOptions {
  name: string;
  entrypoint: string;
  denoPath: string;
  denoDir: string;
  env: Record<string, string>;
  /** First boots fetch npm packages, which may take a while. */
  bootTimeoutMs: number;
  log: (message: string) => void;
}

// Every live Deno child of this Node process, killed synchronously if the process exits.
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess) {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of liveChildren) c.kill('SIGKILL');
    });
  }
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
}

/**
 * SIGKILLs every live Deno child of this process (a forced exit); resolves once they are gone or
 * after `waitMs`.
 */
export async function killAllWorkers(waitMs: number): Promise<void> {
  const children = [...liveChildren];
  const gone = children.map(
    (c) =>
      new Promise<void>((resolve) =>
        (c.exitCode ?? c.signalCode) !== null ? resolve() : c.once('exit', () => resolve()),
      ),
  );
  for (const c of children) c.kill('SIGKILL');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(gone),
    new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
  ]);
  clearTimeout(timer);
}

export class FunctionWorker {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private child: ChildProcess | undefined;
  private booting: Promise<number> | undefined;
  private closed = false;
  private quickExits = 0;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: WorkerOptions) {}

  /** The port the function is served on, booting the worker first if needed. */
  port(): Promise<number> {
    if (this.closed) return Promise.reject(new BootError('functions service is closed'));
    if (!this.booting) {
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      const boot = this.boot();
      this.booting = boot;
      // A failed boot is forgotten so the next request tries again (e.g. after a fix).
      boot.catch(() => {
        if (this.booting === boot) this.booting = undefined;
      });
    }
    return this.booting;
  }

  private boot(): Promise<number> {
    const { name, entrypoint, denoPath, denoDir, env, bootTimeoutMs, log } = this.opts;
    const args = [
      'run',
      '--allow-all',
      '--no-prompt',
      // Never write deno.lock files into the project; npm packages come from the global cache.
      '--no-lock',
      '--node-modules-dir=none',
      `--v8-flags=${WORKER_V8_FLAGS.join(',')}`,
      WORKER_SCRIPT,
      pathToFileURL(entrypoint).href,
      name,
    ];
    const child = spawn(denoPath, args, {
      // The function's folder, so a deno.json beside it is found as on Supabase.
      cwd: path.dirname(entrypoint),
      env: { ...env, DENO_DIR: denoDir, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    trackChild(child);

    return new Promise<number>((resolve, reject) => {
      let ready = false;
      let readyAt = 0;
      const timer = setTimeout(() => {
        reject(new BootError(`${name}: no handler after ${bootTimeoutMs} ms`));
        child.kill('SIGKILL');
      }, bootTimeoutMs);
      const fail = (err: Error) => {
        clearTimeout(timer);
        reject(err);
      };

      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!ready && line.startsWith(READY_MARKER)) {
          ready = true;
          readyAt = Date.now();
          clearTimeout(timer);
          const port = Number(line.slice(READY_MARKER.length).trim());
          log(`${name}: worker ${child.pid} ready on 127.0.0.1:${port}`);
          resolve(port);
        } else log(`${name}: ${line}`);
      });
      createInterface({ input: child.stderr! }).on('line', (line) => log(`${name}: ${line}`));
      // An EPIPE on stdin only means the worker is gone; 'exit' reports that.
      child.stdin!.on('error', () => undefined);

      child.once('error', (err) =>
        fail(new BootError(`${name}: cannot start deno: ${err.message}`)),
      );
      child.once('exit', (code, signal) => {
        const current = this.child === child;
        if (current) {
          this.child = undefined;
          this.booting = undefined;
          this.agent.destroy();
        }
        if (!ready) fail(new BootError(`${name}: worker exited during boot (${signal ?? code})`));
        else if (current && !this.closed) this.superviseExit(child, readyAt);
      });
    });
  }

  /** Starts a worker that died on its own again, so the next request finds it warm. */
  private superviseExit(child: ChildProcess, readyAt: number) {
    const { name, log } = this.opts;
    this.quickExits = Date.now() - readyAt < QUICK_EXIT_MS ? this.quickExits + 1 : 0;
    const delay = restartDelayMs(this.quickExits);
    log(
      `${name}: worker ${child.pid} exited (${child.signalCode ?? child.exitCode}); restarting` +
        (delay ? ` in ${delay} ms` : ''),
    );
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      // A failed boot is logged; the next request tries again.
      if (!this.closed) this.port().catch((err: Error) => log(err.message));
    }, delay);
    this.restartTimer.unref();
  }

  /** The running worker's process id, if one is running. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Kills the running worker as a crash would (for fault tests); the supervisor restarts it.
   * Returns the killed process id, or undefined when none was running.
   */
  kill(signal: NodeJS.Signals = 'SIGKILL'): number | undefined {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return undefined;
    child.kill(signal);
    return child.pid;
  }

  /** Keeps the supervisor from starting the worker again (a forced exit kills it). */
  abandon() {
    this.closed = true;
    clearTimeout(this.restartTimer);
  }

  /** Stops the Deno process: SIGTERM, then SIGKILL if it lingers. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    this.agent.destroy();
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
