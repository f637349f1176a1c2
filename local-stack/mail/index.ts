// The local mail catcher (maildev@2.2.1, used as a library): SMTP on :54325, web UI and JSON API
// (`GET /email`, `DELETE /email/all`) on :54324. Nothing is ever relayed to the outside world.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface MailCatcher {
  close(): Promise<void>;
}

/** The parts of maildev's module singletons this stack drives. */
interface MaildevMailServer {
  create(port: number, host: string, mailDir: string): void;
  listen(): Promise<void>;
  close(callback: (err?: Error) => void): void;
  smtp: {
    on(event: 'error', listener: (err: Error) => void): void;
    removeAllListeners(event: 'error'): void;
    server?: Server;
  };
}
interface MaildevWeb {
  start(
    port: number,
    host: string,
    mailserver: MaildevMailServer,
    user: undefined,
    password: undefined,
    basePathname: string,
    secure: { https: boolean },
  ): void;
  close(callback: () => void): void;
  server: Server | null;
}

const require = createRequire(import.meta.url);

// maildev keeps its servers in module-level singletons, so a process can run one catcher at a time.
let running = false;

/**
 * Starts maildev's SMTP and web servers directly instead of through its entry point: the entry
 * point installs SIGINT/SIGTERM handlers that call process.exit(), which would cut the stack's own
 * orderly shutdown short and leave PostgreSQL behind.
 */
export async function startMailCatcher(opts: {
  host: string;
  webPort: number;
  smtpPort: number;
  log?: (message: string) => void;
}): Promise<MailCatcher> {
  if (running) throw new Error('A mail catcher is already running in this process');
  const log = opts.log ?? (() => undefined);
  const logger = require('maildev/lib/logger') as { setLevel(level: number): void };
  const mailserver = require('maildev/lib/mailserver') as MaildevMailServer;
  const web = require('maildev/lib/web') as MaildevWeb;
  logger.setLevel(0);

  // Messages live only as long as the catcher, like Inbucket/Mailpit in `supabase start`.
  const mailDir = await mkdtemp(path.join(tmpdir(), 'tinyback-mail-'));
  running = true;
  try {
    mailserver.create(opts.smtpPort, opts.host, mailDir);
    // maildev rethrows every SMTP server error except read resets, which would crash the stack
    // on a misbehaving client; log them instead.
    mailserver.smtp.removeAllListeners('error');
    let startupError: ((err: Error) => void) | undefined;
    mailserver.smtp.on('error', (err) =>
      startupError ? startupError(err) : log(`smtp: ${err.message}`),
    );
    await new Promise<void>((resolve, reject) => {
      startupError = reject;
      mailserver.listen().then(resolve, reject);
    });
    startupError = undefined;

    web.start(opts.webPort, opts.host, mailserver, undefined, undefined, '/', { https: false });
    const webServer = web.server;
    if (!webServer) throw new Error('maildev web server did not start');
    await new Promise<void>((resolve, reject) => {
      if (webServer.listening) return resolve();
      webServer.once('listening', resolve);
      webServer.once('error', reject);
    });
    webServer.on('error', (err) => log(`web: ${err.message}`));
  } catch (err) {
    await stopServers(mailserver, web);
    await rm(mailDir, { recursive: true, force: true });
    running = false;
    throw err;
  }

  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= (async () => {
        await stopServers(mailserver, web);
        await rm(mailDir, { recursive: true, force: true });
        running = false;
      })();
      return closed;
    },
  };
}

/** Stops both servers; each step tolerates a server that never started. */
async function stopServers(mailserver: MaildevMailServer, web: MaildevWeb) {
  await new Promise<void>((resolve) => {
    try {
      // mailserver.close() emits 'close', on which nothing is registered here, then closes SMTP.
      mailserver.close(() => resolve());
    } catch {
      resolve();
    }
  });
  if (web.server) {
    const server = web.server;
    await new Promise<void>((resolve) => {
      try {
        web.close(() => resolve());
      } catch {
        resolve();
      }
      server.closeAllConnections?.();
    });
    web.server = null;
  }
}
