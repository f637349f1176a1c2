// Supabase Realtime stand-in (postgres_changes over the Phoenix protocol) at /realtime/v1/websocket:
// checks the socket's apikey, runs the channel protocol per socket, captures changes from a logical
// replication slot and delivers each one to the subscribers allowed to see it.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { StackContext, UpgradeService } from '../context.ts';
import { within } from '../shutdown.ts';
import { Catalog } from './catalog.ts';
import { Channel, RealtimeConnection } from './connection.ts';
import { Delivery, type Subscriber } from './delivery.ts';
import { REALTIME_LIMITS, Semaphore } from './limits.ts';
import { parseVsn } from './protocol.ts';
import { ChangeStream } from './replication.ts';
import { checkApiKey } from './tokens.ts';

/** How long stopping waits for clients to answer the close frame, the stream and deliveries. */
const DISCONNECT_GRACE_MS = 1_000;
const STREAM_CLOSE_MS = 2_000;
const DRAIN_MS = 1_000;

function rejectUpgrade(socket: Duplex, status: number, body: Record<string, unknown>) {
  const text = JSON.stringify(body);
  const reason = status === 401 ? 'Unauthorized' : status === 400 ? 'Bad Request' : 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

export async function createRealtimeService(ctx: StackContext): Promise<UpgradeService> {
  const log = (m: string) => ctx.log('realtime', m);
  const { settings, pool } = ctx;
  const catalog = new Catalog(pool);
  const connections = new Set<RealtimeConnection>();

  function* allChannels(): Iterable<Channel> {
    for (const c of connections) yield* c.channels.values();
  }
  function* subscribers(): Iterable<Subscriber> {
    for (const ch of allChannels()) if (ch.bindings.length) yield ch;
  }
  function* channelsOnTopic(topic: string): Iterable<Channel> {
    for (const c of connections) {
      const ch = c.channels.get(topic);
      if (ch) yield ch;
    }
  }

  const delivery = new Delivery(pool, catalog, subscribers, log);
  const stream = new ChangeStream({
    pool,
    dbUrl: settings.dbUrl,
    onTransaction: (changes) => void delivery.enqueue(changes),
    onRelation: (schema, table) => catalog.invalidate(schema, table),
    log,
  });
  await stream.start();

  // Frames over the cap are refused from their header (close 1009) before they are read.
  const bindingChecks = new Semaphore(4);
  const wss = new WebSocketServer({ noServer: true, maxPayload: REALTIME_LIMITS.maxFrameBytes });
  let closing = false;
  let disconnected: Promise<void> | undefined;
  const disconnect = (graceMs: number) =>
    (disconnected ??= (async () => {
      closing = true;
      // A close frame tells clients the server is going away (supabase-js reconnects later);
      // whoever has not answered it in time is cut, so no open tab holds the stop up.
      const open = [...connections];
      await within(graceMs, Promise.all(open.map((c) => c.goAway())));
      for (const connection of connections) connection.terminate();
      connections.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    })());

  return {
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) {
      if (closing)
        return rejectUpgrade(socket, 503, { error: 'Realtime is restarting, please standby' });
      const vsn = parseVsn(url.searchParams.get('vsn'));
      if (!vsn) return rejectUpgrade(socket, 400, { error: 'Unsupported protocol version' });
      const header = req.headers['x-api-key'];
      const apikey = (typeof header === 'string' && header) || url.searchParams.get('apikey');
      checkApiKey(apikey, settings.jwtSecret, settings)
        .then((auth) => {
          if (!auth.ok) return rejectUpgrade(socket, auth.status, { error: auth.error });
          // Stopping began while the key was checked: the socket list is already closed.
          if (closing)
            return rejectUpgrade(socket, 503, { error: 'Realtime is restarting, please standby' });
          wss.handleUpgrade(req, socket, head, (ws) => {
            const connection = new RealtimeConnection(ws, vsn, auth.token, {
              pool,
              catalog,
              jwtSecret: settings.jwtSecret,
              channelsOnTopic,
              bindingChecks,
              connectedUsers: () => {
                let users = 0;
                for (const c of connections) if (c.isUser) users++;
                return users;
              },
              log,
            });
            connections.add(connection);
            const forget = () => {
              connection.close();
              connections.delete(connection);
            };
            ws.on('close', forget);
            ws.on('error', (err) => {
              log(`socket error: ${err.message}`);
              forget();
            });
          });
        })
        .catch((err: Error) => {
          log(`upgrade failed: ${err.message}`);
          rejectUpgrade(socket, 500, { error: 'Error connecting to Realtime' });
        });
    },

    disconnect,

    async close() {
      await disconnect(DISCONNECT_GRACE_MS);
      // Each bounded: a database that is already gone (Ctrl-C reaches Postgres too) must not
      // hold the stop up.
      const streamClosed = stream.close().catch((e: Error) => log(`stream close: ${e.message}`));
      if (!(await within(STREAM_CLOSE_MS, streamClosed)))
        log(`replication stream did not close within ${STREAM_CLOSE_MS} ms`);
      // Let in-flight deliveries finish before the pool they use is ended.
      if (!(await within(DRAIN_MS, delivery.drain())))
        log(`deliveries did not finish within ${DRAIN_MS} ms`);
    },
  };
}
