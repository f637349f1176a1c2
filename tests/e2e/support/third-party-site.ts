// A stand-in for a customer's website: a tiny HTTP server on its own free port (so its origin
// differs from the dashboard's) that serves whatever HTML the test pastes into it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ThirdPartySite {
  /** e.g. http://127.0.0.1:40123 — what a form's allowed origin must be to accept its posts. */
  origin: string;
  /** Serves `html` at `path` (every other path answers 404). */
  setPage(path: string, html: string): void;
  close(): Promise<void>;
}

export async function startThirdPartySite(): Promise<ThirdPartySite> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const html = pages.get(path);
    if (req.method !== 'GET' || html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setPage: (path, html) => void pages.set(path, html),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain page around a pasted snippet, as a customer would have it. */
export function pageWith(title: string, snippet: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title></head>
<body>
<main>
<h1>${title}</h1>
${snippet}
</main>
</body>
</html>`;
}
