// The SMTP mail provider (self-hosted Supabase, the local stack's mail catcher), on nodemailer.
// Deno-only: imported by index.ts, never by the unit-tested modules.
import { connect, type Socket } from 'node:net';
import nodemailer from 'npm:nodemailer@6.10.1';
import { DELIVERY } from '../limits.ts';
import { smtpMessage, type Mailer } from './mailer.ts';

/** Connections the pool keeps open at most, and so the sends that run at once. */
const CONNECTIONS = 3;
/** Messages per connection before it is replaced (servers cap a session's messages). */
const MESSAGES_PER_CONNECTION = 100;

/**
 * nodemailer's `getSocket` hook: the connection it would open, with Nagle's algorithm off. SMTP is
 * a dialogue of small writes; with Nagle on, a write made while the previous one is unacknowledged
 * waits for the server's delayed ACK (40 ms on Linux), which held each message to about 50 ms.
 * With TLS from the start (`secure`), nodemailer upgrades this socket itself. When the connection
 * fails, nodemailer is told to open its own (`false`): a failure handed back from this hook would
 * leave the pool's slot taken for good, while its own attempt fails and frees the slot as usual.
 */
function openWithoutDelay(
  host: string,
  port: number,
  callback: (err: Error | null, socketOptions?: { connection: Socket } | false) => void,
): void {
  const socket = connect({ host, port });
  const timer = setTimeout(() => fallBack(), DELIVERY.sendTimeoutMs);
  let settled = false;
  const settle = () => {
    if (settled) return false;
    settled = true;
    clearTimeout(timer);
    socket.removeListener('error', fallBack);
    return true;
  };
  function fallBack() {
    if (!settle()) return;
    socket.on('error', () => undefined);
    socket.destroy();
    callback(null, false);
  }
  socket.once('error', fallBack);
  socket.once('connect', () => {
    if (!settle()) return;
    socket.setNoDelay(true);
    callback(null, { connection: socket });
  });
}

export function createSmtpMailer(config: {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  pass: string | null;
}): Mailer {
  // One pooled transport for the worker's life: a batch of mail goes over a few open connections
  // instead of one SMTP handshake each. An idle connection closes after the socket timeout, and a
  // worker that is recycled simply drops it; the pool reconnects when mail is next due.
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: MESSAGES_PER_CONNECTION,
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.pass ?? '' } : undefined,
    connectionTimeout: DELIVERY.sendTimeoutMs,
    greetingTimeout: DELIVERY.sendTimeoutMs,
    socketTimeout: DELIVERY.sendTimeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    getSocket: (_options: unknown, callback: Parameters<typeof openWithoutDelay>[2]) =>
      openWithoutDelay(config.host, config.port, callback),
  });
  return {
    parallel: CONNECTIONS,
    async send(mail) {
      await transport.sendMail(smtpMessage(mail));
    },
  };
}
