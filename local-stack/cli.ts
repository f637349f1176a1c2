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
        /error/i.test(message)
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

/** Stops the stack once on SIGINT/SIGTERM, then exits. */
export function stopOnSignals(stop: () => Promise<void>) {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, stopping…`);
    stop()
      .catch((e) => console.error(e))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGHUP', () => handler('SIGHUP'));
}

const isMain =
  process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('local-stack', 'cli.ts'));
if (isMain) {
  runStackCli(process.argv.slice(2))
    .then((stack) => stopOnSignals(stack.stop))
    .catch((err) => {
      console.error(`Local stack failed to start: ${(err as Error).stack ?? err}`);
      process.exit(1);
    });
}
