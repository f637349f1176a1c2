// A switch between the browser and the API: an HTTP proxy that a page's context is sent through
// (Playwright's per-context `proxy`), forwarding everything, that can take the API away from that
// browser while the stack keeps running for everyone else. 'refuse' drops every open connection
// to the API (the realtime socket included) and every new one, as a stopped server or a broken
// network would; 'hang' accepts connections to the API and never answers, as a server that has
// stopped responding would. Other hosts (the site itself) are always forwarded.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { BrowserContextOptions } from 'playwright-core';

type ApiMode = 'up' | 'refuse' | 'hang';

export interface ApiSwitch {
  /** For `newPage({ proxy })`: every request of the context goes through the switch. */
  readonly proxy: NonNullable<BrowserContextOptions['proxy']>;
  readonly mode: ApiMode;
  /** Sets the mode; leaving 'up' cuts every open connection to the API at once. */
  set(mode: ApiMode): void;
  /** Requests to the API that reached the switch (answered or not), by path. */
  readonly apiRequests: string[];
  close(): Promise<void>;
}

/** Starts a switch for the API at `apiUrl` (e.g. http://127.0.0.1:54321). */
export async function startApiSwitch(apiUrl: string): Promise<ApiSwitch> {
  const api = new URL(apiUrl);
  const apiHost = api.hostname;
  const apiPort = Number(api.port || 80);
  let mode: ApiMode = 'up';
  const apiRequests: string[] = [];
  /** Client-side sockets of open connections to the API (tunnels and plain requests). */
  const apiSockets = new Set<net.Socket>();
  const allSockets = new Set<net.Socket>();

  const isApi = (host: string, port: number) => host === apiHost && port === apiPort;
  const track = (socket: net.Socket) => {
    apiSockets.add(socket);
    socket.once('close', () => apiSockets.delete(socket));
  };

  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URL expected');
      return;
    }
    const port = Number(target.port || 80);
    if (isApi(target.hostname, port)) {
      apiRequests.push(`${req.method} ${target.pathname}`);
      track(req.socket);
      if (mode === 'refuse') return void req.socket.destroy();
      if (mode === 'hang') return;
    }
    const upstream = http.request(
      {
        host: target.hostname,
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });

  // WebSockets (and anything else the browser tunnels) arrive as CONNECT host:port.
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const [host, portText] = (req.url ?? '').split(':');
    const port = Number(portText);
    client.on('error', () => undefined);
    if (isApi(host, port)) {
      apiRequests.push(`CONNECT ${req.url}`);
      track(client);
      if (mode === 'refuse') return void client.destroy();
      if (mode === 'hang') return;
    }
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });

  server.on('connection', (socket: net.Socket) => {
    allSockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => allSockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    proxy: { server: `http://127.0.0.1:${port}` },
    get mode() {
      return mode;
    },
    set(next) {
      if (next === mode) return;
      mode = next;
      // Whatever was open to the API belongs to the old state: gone with it (a hanging request
      // that was held open fails now, as when the server comes back after a restart).
      for (const socket of apiSockets) socket.destroy();
      apiSockets.clear();
    },
    apiRequests,
    close: async () => {
      for (const socket of allSockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
