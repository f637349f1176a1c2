// Commands run as a user runs them in a terminal: in a process group of their own, so that
// Ctrl-C (SIGINT to the whole group) reaches npm, tsx, node and every child process at once, as a
// terminal's does. And what must be true after they exit: ports free, no process left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import { PROJECT_DIR } from '../../local-stack/config.ts';

export interface GroupProcess {
  child: ChildProcess;
  output(): string;
  /** When (performance.now()) the output first matched, if it has. */
  timeOf(pattern: RegExp): number | undefined;
  /** Resolves once the output matches (rejects on exit or after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Ctrl-C as a terminal sends it: SIGINT to every process of the group. */
  ctrlC(): void;
  /** Resolves with the exit code (or signal) once the command has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** SIGKILLs whatever of the group is left (test cleanup). */
  kill(): void;
}

export function runInGroup(command: string, args: string[], env: NodeJS.ProcessEnv): GroupProcess {
  const child = spawn(command, args, {
    cwd: PROJECT_DIR,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const chunks: { at: number; end: number }[] = [];
  const listeners = new Set<() => void>();
  const append = (d: Buffer) => {
    output += String(d);
    chunks.push({ at: performance.now(), end: output.length });
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone
    }
  };
  return {
    child,
    output: () => output,
    timeOf(pattern) {
      const match = pattern.exec(output);
      if (!match) return undefined;
      const end = match.index + match[0].length;
      return chunks.find((c) => c.end >= end)?.at;
    },
    waitFor(pattern, timeoutMs = 120_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const onExit = (code: number | null) => {
          done();
          reject(new Error(`exited with ${code} before ${pattern}:\n${output}`));
        };
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
    ctrlC: () => signalGroup('SIGINT'),
    exited,
    kill: () => signalGroup('SIGKILL'),
  };
}

/** Can this test bind the port on 127.0.0.1 (nothing else holds it)? */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Processes whose command line or environment mentions a folder (a stack's data folder). */
export async function processesUsing(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    for (const file of ['cmdline', 'environ']) {
      const text = await readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => '');
      if (text.includes(dir)) {
        found.push(`${pid}: ${text.split('\0').slice(0, 3).join(' ')}`);
        break;
      }
    }
  }
  return found;
}
