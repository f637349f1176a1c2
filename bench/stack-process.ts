// A benchmark's local stack in a process of its own (bench/realtime-stack.ts), so the load a
// benchmark generates never shares an event loop with the servers it measures (on Supabase,
// clients and servers are different machines).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface StackSettings {
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  dbUrl: string;
}

export interface StackProcess {
  child: ChildProcess;
  settings: StackSettings;
  /** The Edge Functions' log lines so far (only with `functionLog: true`). */
  functionLog: string[];
}

export async function startStackProcess(
  dataDir: string,
  opts: {
    functionEnv?: Record<string, string>;
    functionLog?: boolean;
    /** Postgres settings beyond the stand-in's own (bench/realtime-stack.ts). */
    postgresSettings?: Record<string, string>;
  } = {},
): Promise<StackProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/realtime-stack.ts'], {
    env: {
      ...process.env,
      BENCH_DATA_DIR: dataDir,
      ...(opts.functionEnv ? { BENCH_FUNCTION_ENV: JSON.stringify(opts.functionEnv) } : {}),
      ...(opts.functionLog ? { BENCH_FUNCTION_LOG: '1' } : {}),
      ...(opts.postgresSettings
        ? { BENCH_POSTGRES_SETTINGS: JSON.stringify(opts.postgresSettings) }
        : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const functionLog: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  const settings = await new Promise<StackSettings>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`stack exited with ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as StackSettings);
      else if (line.startsWith('functions: ')) functionLog.push(line.slice('functions: '.length));
    });
  });
  return { child, settings, functionLog };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
