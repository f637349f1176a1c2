// Streams a gateway request to a function's private Deno server and its response back, adding
// the X-Forwarded-* headers Supabase's gateway adds. Bodies are streamed, never buffered.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The request body went over the cap while streaming. */
export class BodyLimitError extends Error {}

/** The worker died or refused the connection mid-request. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** The socket error's code (`ECONNREFUSED`: the request never reached a worker). */
    readonly code?: string,
  ) {
    super(message);
  }
}

function forwardedHeaders(req: IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(key)) headers[key] = value;
  }
  const client = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${prior}, ${client}` : client;
  headers['x-forwarded-host'] = req.headers.host ?? '';
  headers['x-forwarded-proto'] =
    'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  return headers;
}

/**
 * Sends `req` to the worker as `targetPath` (path and query as the function must see them).
 * Resolves when the response has been fully relayed; rejects with BodyLimitError or UpstreamError
 * before any response byte was written, so the caller can still answer with an error.
 */
export function proxyToWorker(opts: {
  req: IncomingMessage;
  res: ServerResponse;
  port: number;
  agent: http.Agent;
  targetPath: string;
  maxBodyBytes: number;
}): Promise<void> {
  const { req, res, port, agent, targetPath, maxBodyBytes } = opts;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve();
    };

    const upstream = http.request({
      host: '127.0.0.1',
      port,
      agent,
      method: req.method,
      path: targetPath,
      headers: forwardedHeaders(req),
    });

    upstream.on('response', (upRes) => {
      const headers: http.OutgoingHttpHeaders = {};
      for (const [key, value] of Object.entries(upRes.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(key)) headers[key] = value;
      }
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, headers);
      upRes.pipe(res);
      upRes.on('end', () => settle());
      upRes.on('error', () => {
        res.destroy();
        settle();
      });
    });
    upstream.on('error', (err) => {
      if (res.headersSent) {
        res.destroy();
        settle();
      } else
        settle(
          err instanceof BodyLimitError
            ? err
            : new UpstreamError(err.message, (err as NodeJS.ErrnoException).code),
        );
    });
    // The client went away: stop the function's request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
      settle();
    });

    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBodyBytes) {
        req.unpipe(upstream);
        upstream.destroy(new BodyLimitError(`request body exceeds ${maxBodyBytes} bytes`));
      }
    });
    req.pipe(upstream);
  });
}
