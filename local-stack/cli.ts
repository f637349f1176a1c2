// `npm run stack [-- --reset] [--verbose]`: runs the local stack in the foreground until Ctrl-C.
// Data lives in .stack-data/ (git-ignored) and persists across restarts. STACK_DATA_DIR and
// STACK_API_PORT / STACK_DB_PORT / STACK_MAIL_WEB_PORT / STACK_SMTP_PORT override the defaults.
import path from 'node:path';
import { DEFAULT_PORTS, PROJECT_DIR, type StackPorts } from './config.ts';
import { checkReady } from './readiness.ts';
import { startStack, type RunningStack } from './stack.ts';

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} must be a TCP port number, got "${raw}"`);
  }
  return port;
}

function portsFromEnv(): StackPorts {
  return {
    api: portFromEnv('STACK_API_PORT', DEFAULT_PORTS.api),
    db: portFromEnv('STACK_DB_PORT', DEFAULT_PORTS.db),
    mailWeb: portFromEnv('STACK_MAIL_WEB_PORT', DEFAULT_PORTS.mailWeb),
    smtp: portFromEnv('STACK_SMTP_PORT', DEFAULT_PORTS.smtp),
  };
}

export async function runStackCli(argv: string[]): Promise<RunningStack> {
  const reset = argv.includes('--reset');
  const verbose = argv.includes('--verbose');
  const dataDir = process.env.STACK_DATA_DIR ?? path.join(PROJECT_DIR, '.stack-data');
  const started = Date.now();
  const stack = await startStack({
    dataDir,
    ports: portsFromEnv(),
    reset,
    log: (service, message) => {
      if (
        verbose ||
        (service === 'postgres' && /applied|seeded/.test(message)) ||
        /error|not honoured|did not stop|still waiting|stopped in \d{4,} ms/i.test(message)
      ) {
        console.log(`[${service}] ${message}`);
      }
    },
  });
  const s = stack.settings;
  try {
    await checkReady(s);
  } catch (err) {
    await stack.stop();
    throw new Error(`a service did not answer: ${(err as Error).message}`);
  }
  console.log(
    [
      `API URL:          ${s.apiUrl}`,
      `  Auth:           ${s.apiUrl}/auth/v1`,
      `  REST:           ${s.apiUrl}/rest/v1`,
      `  Storage:        ${s.apiUrl}/storage/v1`,
      `  Realtime:       ${s.apiUrl.replace('http', 'ws')}/realtime/v1/websocket`,
      `  Functions:      ${s.apiUrl}/functions/v1/<name>  (form endpoint: ${s.apiUrl}/functions/v1/forms/<formId>)`,
      `DB URL:           ${s.dbUrl}`,
      `Mail catcher:     ${s.mailWebUrl}  (SMTP 127.0.0.1:${s.ports.smtp})`,
      `anon key:         ${s.anonKey}`,
      `service_role key: ${s.serviceRoleKey}`,
      `JWT secret:       ${s.jwtSecret}`,
      `Local stack ready in ${Date.now() - started} ms (development only; data in ${path.relative(process.cwd(), dataDir) || dataDir})`,
    ].join('\n'),
  );
  return stack;
}

/**
 * A terminal's Ctrl-C reaches every process of the foreground group, and npm and tsx relay it to
 * their child as well: the one key press arrives here up to three times within milliseconds.
 * Signals this soon after the first count as the same one.
 */
export const SAME_SIGNAL_MS = 500;
/** Longer than every bounded stop step together: then the stop is forced as a second Ctrl-C would. */
export const STOP_WATCHDOG_MS = 30_000;

export interface Stoppable {
  /** The orderly stop (each step bounded). */
  stop(): Promise<void>;
  /** Best-effort kill of child processes before a forced exit (bounded). */
  abort(): Promise<void>;
}

/**
 * On SIGINT/SIGTERM/SIGHUP: stops everything, then exits 0. Another signal while it stops (a
 * second Ctrl-C) forces the exit: child processes are killed (Deno workers, Postgres' immediate
 * shutdown) and the process exits 130 without waiting for the rest; a third exits at once.
 */
export function stopOnSignals(target: Stoppable) {
  let first = 0;
  let forcing = false;
  const force = (why: string) => {
    if (forcing) {
      console.log('Exiting now.');
      process.exit(130);
    }
    forcing = true;
    console.log(`${why}: killing child processes and exiting…`);
    target
      .abort()
      .catch((e) => console.error(e))
      .finally(() => process.exit(130));
  };
  const handler = (signal: string) => {
    const now = Date.now();
    if (first === 0) {
      first = now;
      console.log(`\n${signal} received, stopping… (Ctrl-C again to force)`);
      const watchdog = setTimeout(
        () => force(`Still stopping after ${STOP_WATCHDOG_MS / 1000} s`),
        STOP_WATCHDOG_MS,
      );
      target
        .stop()
        .then(() => {
          if (!forcing) console.log(`Stopped in ${Date.now() - first} ms.`);
        })
        .catch((e) => console.error(e))
        .finally(() => {
          clearTimeout(watchdog);
          if (!forcing) process.exit(0);
        });
    } else if (now - first >= SAME_SIGNAL_MS) {
      force(`${signal} received again`);
    }
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGHUP', () => handler('SIGHUP'));
}

const isMain =
  process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('local-stack', 'cli.ts'));
if (isMain) {
  runStackCli(process.argv.slice(2))
    .then((stack) => stopOnSignals(stack))
    .catch((err) => {
      console.error(`Local stack failed to start: ${(err as Error).stack ?? err}`);
      process.exit(1);
    });
}
