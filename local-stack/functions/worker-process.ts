// One long-lived Deno process serving one Edge Function: started on first use, kept warm,
// started again after it dies, and killed with the stack (also when the stack's process exits).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WORKER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.ts');
const READY_MARKER = '@@tinyback-functions-worker-ready@@';

/** The function's module failed to load or never registered a handler. */
export class BootError extends Error {}

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

export class FunctionWorker {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private child: ChildProcess | undefined;
  private booting: Promise<number> | undefined;
  private closed = false;

  constructor(private readonly opts: WorkerOptions) {}

  /** The port the function is served on, booting the worker first if needed. */
  port(): Promise<number> {
    if (this.closed) return Promise.reject(new BootError('functions service is closed'));
    if (!this.booting) {
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
        if (this.child === child) {
          this.child = undefined;
          this.booting = undefined;
          this.agent.destroy();
        }
        if (!ready) fail(new BootError(`${name}: worker exited during boot (${signal ?? code})`));
        else if (!this.closed)
          log(`${name}: worker ${child.pid} exited (${signal ?? code}); restarts on next request`);
      });
    });
  }

  /** Stops the Deno process: SIGTERM, then SIGKILL if it lingers. */
  async close(): Promise<void> {
    this.closed = true;
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
