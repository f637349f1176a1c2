// A webhook receiver for integration tests: a real HTTP server on 127.0.0.1 that records every
// request (raw body and headers) and answers each path as the test scripts it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedHook {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as received, for signature checks. */
  raw: Buffer;
  status: number;
}

export interface Receiver {
  url(path: string): string;
  /** Statuses to answer on `path`, in order; once used up (or unset) it answers 200. */
  script(path: string, statuses: number[]): void;
  received(path: string): ReceivedHook[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const scripts = new Map<string, number[]>();
  const log: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const status = scripts.get(path)?.shift() ?? 200;
      log.push({ path, headers: req.headers, raw: Buffer.concat(chunks), status });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'thanks' : `receiver down (${status})`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    script: (path, statuses) => void scripts.set(path, [...statuses]),
    received: (path) => log.filter((h) => h.path === path),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
