// Small HTTP helpers shared by the stand-in services.
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLargeError extends Error {
  constructor(public limit: number) {
    super(`Request body exceeds ${limit} bytes`);
  }
}

/**
 * Reads the whole request body, refusing more than `limit` bytes. An oversized body is still read
 * to its end (and dropped) before the refusal: answering earlier makes the server close a socket
 * with unread input, and the client's TCP stack then discards the answer along with the reset.
 */
export function readBody(req: IncomingMessage, limit = 10 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () =>
      size > limit ? reject(new BodyTooLargeError(limit)) : resolve(Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The bearer token of a request, if any. */
export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1].trim() : null;
}

/**
 * The deepest nesting of `open`/`close` brackets in a text, ignoring those inside double-quoted
 * strings. Parsers here recurse per level, so callers cap it before parsing.
 */
export function nestingDepth(text: string, open = '[{', close = ']}'): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (open.includes(c)) max = Math.max(max, ++depth);
    else if (close.includes(c)) depth--;
  }
  return max;
}

/**
 * Deeper JSON is refused before parsing: serialising it for Postgres would overflow the stack.
 * (Go's decoder allows 10,000 levels; no request to these services needs more than a handful.)
 */
const MAX_JSON_DEPTH = 1000;

/**
 * Parses a JSON body; returns undefined for an empty body and throws SyntaxError when invalid or
 * nested deeper than MAX_JSON_DEPTH.
 */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (!text.trim()) return undefined;
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw new SyntaxError('exceeded max depth');
  return JSON.parse(text);
}
