// Sends one webhook request safely: https only (http too when local targets are allowed), every
// resolved address checked before connecting and the connection made to exactly that address (a
// name that resolves to a public address for the check and a private one for the connection —
// DNS rebinding — cannot slip through), no redirects followed, a timeout over the whole exchange
// and a cap on the answer's size. node:http/https run unchanged under Deno and in Node's tests.
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import { isPublicAddress, webhookUrlProblem, WEBHOOKS } from './webhooks.ts';

interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (node:dns's lookup by default). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface SendResult {
  ok: boolean;
  /** Null when no HTTP answer came. */
  statusCode: number | null;
  error: string | null;
  /** The start of the answer's body (at most WEBHOOKS.excerptChars characters). */
  excerpt: string | null;
  durationMs: number;
}

export interface SendOptions {
  /** Local development and tests only: http and private/loopback targets allowed. */
  allowLocal: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  resolve?: Resolver;
  now?: () => number;
}

const defaultResolve: Resolver = (host) =>
  dns.promises.lookup(host, { all: true, verbatim: true }) as Promise<ResolvedAddress[]>;

/** Thrown inside the lookup; its message reaches the delivery log. */
class RefusedTarget extends Error {}

/** POSTs `body` to `url` with `headers`; never throws: every failure is a SendResult. */
export async function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendResult> {
  const clock = opts.now ?? Date.now;
  const started = clock();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.max(0, Math.round(clock() - started)),
  });
  const problem = webhookUrlProblem(url, opts.allowLocal);
  if (problem)
    return done({ ok: false, statusCode: null, error: `Refused: ${problem}`, excerpt: null });

  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const resolve = opts.resolve ?? defaultResolve;
  const timeoutMs = opts.timeoutMs ?? WEBHOOKS.timeoutMs;
  const maxBytes = opts.maxResponseBytes ?? WEBHOOKS.maxResponseBytes;

  // Checked here and handed to the socket: the address connected to is the address checked.
  const lookup = (
    hostname: string,
    options: { all?: boolean } | number | undefined,
    callback: (err: Error | null, address: string | ResolvedAddress[], family?: number) => void,
  ) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new RefusedTarget(`${hostname} has no address`);
        const blocked = addresses.find((a) => !isPublicAddress(a.address));
        if (blocked && !opts.allowLocal)
          throw new RefusedTarget(
            `${hostname} resolves to ${blocked.address}, a private or reserved address`,
          );
        const chosen = addresses[0];
        if (typeof options === 'object' && options?.all) callback(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      })
      .catch((err: Error) => callback(err, '', 0));
  };

  return new Promise<SendResult>((finish) => {
    let settled = false;
    const settle = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish(done(r));
    };
    const client = target.protocol === 'https:' ? https : http;
    // An IP literal never reaches `lookup`; webhookUrlProblem() has judged it above.
    const literal = /^[\d.]+$/.test(host) || host.includes(':');
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(new TextEncoder().encode(body).length),
          'user-agent': 'tinyback-webhooks/1',
        },
        lookup: literal ? undefined : (lookup as never),
        agent: false,
      },
      (res) => {
        const chunks: Uint8Array[] = [];
        let size = 0;
        const end = () => {
          const status = res.statusCode ?? 0;
          const text = new TextDecoder().decode(concat(chunks)).slice(0, WEBHOOKS.excerptChars);
          const ok = status >= 200 && status < 300;
          settle({
            ok,
            statusCode: status,
            // A redirect is an answer, never followed: the target must be the URL itself.
            error: ok
              ? null
              : status >= 300 && status < 400
                ? `Redirect to ${String(res.headers.location ?? '?').slice(0, 200)} not followed`
                : `HTTP ${status}`,
            excerpt: text || null,
          });
        };
        res.on('data', (chunk: Uint8Array) => {
          if (size >= maxBytes) return;
          const room = maxBytes - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          // Enough read: the rest is dropped without waiting for it.
          if (size >= maxBytes) {
            end();
            res.destroy();
          }
        });
        res.on('end', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      settle({
        ok: false,
        statusCode: null,
        error: `No answer within ${timeoutMs} ms`,
        excerpt: null,
      });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => {
      const refused =
        err instanceof RefusedTarget || /private or reserved|has no address/.test(err.message);
      settle({
        ok: false,
        statusCode: null,
        error: (refused ? `Refused: ${err.message}` : err.message || 'Connection failed').slice(
          0,
          500,
        ),
        excerpt: null,
      });
    });
    req.end(body);
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
