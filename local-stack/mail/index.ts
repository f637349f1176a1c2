// The local mail catcher (maildev@2.2.1, used as a library): SMTP on :54325, web UI and JSON API
// (`GET /email`, `DELETE /email/all`) on :54324. Nothing is ever relayed to the outside world.
//
// Messages are kept raw as they arrive and handed to maildev (written to disk, parsed) when they
// are first looked at: any call of its API, at once while a web UI is open, and at the latest when
// the catcher stops. Parsing cost about
// 3 ms of the stack's process per message, more than the rest of a post's path, for mail that most
// runs (benchmarks, load) only count at the end; what the API answers is the same as before.
// Messages and their files last as long as the process: a stopped and restarted catcher still
// lists, shows, downloads and deletes what it held (maildev keeps its store in memory).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

export interface MailCatcher {
  close(): Promise<void>;
}

/** smtp-server's DATA handler: the message stream, the SMTP session, the answer to the client. */
type OnData = (
  stream: Readable,
  session: SmtpSession,
  callback: (err: Error | null, message?: string) => void,
) => void;
/** The parts of the SMTP session maildev reads. */
interface SmtpSession {
  envelope: { mailFrom: unknown; rcptTo: unknown };
  hostNameAppearsAs?: string;
  remoteAddress?: string;
}

/** The parts of maildev's module singletons this stack drives. */
interface MaildevMailServer {
  create(port: number, host: string, mailDir: string): void;
  listen(): Promise<void>;
  close(callback: (err?: Error) => void): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
  removeListener(event: string, listener: (...args: unknown[]) => void): void;
  smtp: {
    on(event: 'error', listener: (err: Error) => void): void;
    removeAllListeners(event: 'error'): void;
    onData: OnData;
    server?: Server;
    connections?: Set<{ send(code: number, message: string): void; close(): void }>;
  };
  [api: string]: unknown;
}

/** maildev's API calls (routes.js) that read or change the stored messages. */
export const READERS = [
  'getEmail',
  'getRawEmail',
  'getEmailHTML',
  'readAllEmail',
  'getAllEmail',
  'deleteEmail',
  'getEmailAttachment',
  'getEmailEml',
  'relayMail',
] as const;
/** Longest wait for maildev to store one handed-over message (it reports no parse failure). */
const STORE_TIMEOUT_MS = 5_000;
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

/** One copy of maildev's modules, with what the catcher on it needs to remember. */
interface Maildev {
  mailserver: MaildevMailServer;
  web: MaildevWeb;
  /** maildev's module functions before the first catcher wrapped them (see storeLazily). */
  originals?: Record<string, (...args: unknown[]) => unknown>;
  /**
   * Where maildev keeps the messages' files (`<id>.eml`, attachments): one folder per copy, kept
   * as long as its store is (across a restart), so every stored message can still be read,
   * downloaded or deleted; removed when the process exits.
   */
  mailDir: string;
  running: boolean;
}

/** The copies' mail folders, removed when the process exits (their stores end with it). */
const mailDirs = new Set<string>();
function removeMailDirs() {
  for (const dir of mailDirs) rmSync(dir, { recursive: true, force: true });
  mailDirs.clear();
}

/**
 * maildev keeps its servers and its store in module-level singletons. Each catcher address gets a
 * copy of maildev's own modules (its dependencies stay shared), so two stacks in one process (the
 * test projects' setups) keep their own servers and mail, and a catcher restarted on the same
 * address finds the store it left.
 */
const maildevs = new Map<string, Maildev>();

function maildevFor(address: string): Maildev {
  let maildev = maildevs.get(address);
  if (maildev) return maildev;
  const lib = path.dirname(require.resolve('maildev/lib/mailserver'));
  for (const key of Object.keys(require.cache)) {
    if (key.startsWith(lib + path.sep)) delete require.cache[key];
  }
  const logger = require('maildev/lib/logger') as { setLevel(level: number): void };
  logger.setLevel(0);
  const mailDir = mkdtempSync(path.join(tmpdir(), 'tinyback-mail-'));
  if (mailDirs.size === 0) process.once('exit', removeMailDirs);
  mailDirs.add(mailDir);
  maildev = {
    mailserver: require('maildev/lib/mailserver') as MaildevMailServer,
    web: require('maildev/lib/web') as MaildevWeb,
    mailDir,
    running: false,
  };
  maildevs.set(address, maildev);
  return maildev;
}

/**
 * Starts maildev's SMTP and web servers directly instead of through its entry point: the entry
 * point installs SIGINT/SIGTERM handlers that call process.exit(), which would cut the stack's own
 * orderly shutdown short and leave PostgreSQL behind. maildev-internals.test.ts pins this private
 * use: it fails on any maildev upgrade until each point it checks is looked at again.
 */
export async function startMailCatcher(opts: {
  host: string;
  webPort: number;
  smtpPort: number;
  log?: (message: string) => void;
}): Promise<MailCatcher> {
  const maildev = maildevFor(`${opts.host}:${opts.smtpPort}`);
  if (maildev.running)
    throw new Error(`A mail catcher is already running on port ${opts.smtpPort}`);
  let handOverWaiting = () => Promise.resolve();
  const log = opts.log ?? (() => undefined);
  const { mailserver, web } = maildev;

  maildev.running = true;
  try {
    mailserver.create(opts.smtpPort, opts.host, maildev.mailDir);
    handOverWaiting = storeLazily(maildev);
    // Each SMTP reply is a small write; with Nagle's algorithm on, a reply written while the
    // previous one is unacknowledged waits for the client's delayed ACK (40 ms on Linux), which
    // held every message to about 50 ms and kept the outbox from keeping up with the posts.
    mailserver.smtp.server?.on('connection', (socket: Socket) => socket.setNoDelay(true));
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
    maildev.running = false;
    throw err;
  }

  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= (async () => {
        await stopServers(mailserver, web);
        // Accepted is caught: what arrived before the stop is stored, and outlives a restart as
        // maildev's store does. Its files stay with it: a folder removed here would leave the
        // store naming files that are gone (a restarted catcher asked for such a message's
        // source crashed the stack with ENOENT), and a read still under way would open a file
        // in a folder being removed.
        await handOverWaiting();
        maildev.running = false;
      })();
      return closed;
    },
  };
}

/**
 * Replaces maildev's DATA handler (write to disk and parse, per message) with one that keeps the
 * raw message, and makes every API call that reads or deletes messages first hand the waiting
 * ones to maildev's own handler, in arrival order. A web UI (subscribed to 'new') gets them at once.
 */
function storeLazily(maildev: Maildev): () => Promise<void> {
  const { mailserver } = maildev;
  const parseNow = mailserver.smtp.onData;
  // maildev's own functions, kept from the first start: a restarted catcher wraps them, not the
  // wrappers of the catcher before it.
  const own = (maildev.originals ??= Object.fromEntries(
    [...READERS, 'deleteAllEmail', 'on', 'removeListener'].map((name) => [name, mailserver[name]]),
  ) as Record<string, (...args: unknown[]) => unknown>);
  const on = own.on as MaildevMailServer['on'];
  const removeListener = own.removeListener as MaildevMailServer['removeListener'];
  const waiting: { raw: Buffer; session: SmtpSession }[] = [];
  let handing = Promise.resolve();
  let watchers = 0;

  const storeOne = (raw: Buffer, session: SmtpSession) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        removeListener('new', done);
        resolve();
      };
      const timer = setTimeout(done, STORE_TIMEOUT_MS);
      on('new', done);
      try {
        parseNow(Readable.from([raw], { objectMode: false }), session, () => undefined);
      } catch {
        done();
      }
    });
  const handOver = () => {
    handing = handing.then(async () => {
      while (waiting.length) {
        const next = waiting.shift()!;
        await storeOne(next.raw, next.session);
      }
    });
    return handing;
  };

  mailserver.smtp.onData = (stream, session, callback) => {
    const chunks: Buffer[] = [];
    // The session object is reused for the connection's next message: keep what maildev reads.
    const snapshot: SmtpSession = {
      envelope: { ...session.envelope },
      hostNameAppearsAs: session.hostNameAppearsAs,
      remoteAddress: session.remoteAddress,
    };
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      waiting.push({ raw: Buffer.concat(chunks), session: snapshot });
      callback(null, 'Message queued');
      if (watchers > 0) void handOver();
    });
  };

  for (const name of READERS) {
    const call = own[name];
    mailserver[name] = (...args: unknown[]) => void handOver().then(() => call(...args));
  }
  // Deleting all drops the waiting messages unparsed (after any hand-over already under way).
  const deleteAll = own.deleteAllEmail;
  mailserver.deleteAllEmail = (...args: unknown[]) =>
    void handing.then(() => {
      waiting.length = 0;
      deleteAll(...args);
    });
  // The web UI's sockets subscribe to 'new' (maildev/lib/web.js) for live updates.
  mailserver.on = (event, listener) => {
    if (event === 'new') watchers++;
    on(event, listener);
    if (event === 'new' && waiting.length) void handOver();
  };
  mailserver.removeListener = (event, listener) => {
    if (event === 'new') watchers = Math.max(0, watchers - 1);
    removeListener(event, listener);
  };
  return handOver;
}

/** Stops both servers; each step tolerates a server that never started. */
async function stopServers(mailserver: MaildevMailServer, web: MaildevWeb) {
  await new Promise<void>((resolve) => {
    try {
      // mailserver.close() emits 'close', on which nothing is registered here, then closes SMTP.
      mailserver.close(() => resolve());
      // smtp-server would let open connections go on for 30 s and answer them meanwhile; a stopped
      // server says so and hangs up at once, so pooled clients fail fast and reconnect later.
      for (const connection of mailserver.smtp.connections ?? []) {
        connection.send(421, 'Server shutting down');
        connection.close();
      }
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
