// Stopping without waiting on clients: every step of the stack's shutdown has a bounded time, and
// a server's own sockets (keep-alive HTTP, upgraded WebSockets) are closed by the server instead
// of being waited out.
import type { Server as HttpServer } from 'node:http';
import type { Server, Socket } from 'node:net';

/**
 * Waits for `work` at most `ms`; returns false when the time ran out (the work goes on in the
 * background). A failure counts as finished and is dropped: callers catch what they report.
 */
export async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ClosableServer {
  /**
   * Stops accepting connections and ends the open ones: idle and active HTTP connections at once,
   * sockets upgraded to another protocol (WebSocket) after `graceMs` (their own service closes
   * them properly meanwhile). Resolves once the server is closed.
   */
  close(graceMs: number): Promise<void>;
}

/**
 * Tracks a server's sockets from now on, so that closing it never waits for a client: Node's
 * `server.close()` waits for every connection, `closeAllConnections()` skips upgraded ones, and a
 * browser tab keeps both open for as long as it likes. Call it before the server listens.
 */
export function closable(server: Server | HttpServer): ClosableServer {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let closed: Promise<void> | undefined;
  return {
    close(graceMs) {
      closed ??= new Promise<void>((resolve) => {
        if (!server.listening && sockets.size === 0) return resolve();
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
        const cut = () => {
          for (const socket of sockets) socket.destroy();
        };
        if (graceMs <= 0) cut();
        else setTimeout(cut, graceMs).unref();
      });
      return closed;
    },
  };
}
