// The API gateway on :54321, standing in for Supabase's Kong: mounts each service under Supabase's
// path, refuses requests without a known API key as Kong's key-auth does (Auth, REST, Realtime),
// maps the new-style API keys to the demo JWTs, answers CORS for the APIs, routes the public form
// path `/api/forms/{id}` to the `forms` Edge Function, and answers 501 for the Supabase services
// it does not run (GraphQL, …) instead of a bare 404.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpService, UpgradeService } from './context.ts';
import { actAsFormsProxy } from './forms-proxy.ts';
import { sendJson } from './http.ts';
import { Router } from './router.ts';
import { mapApiKey, PUBLISHABLE_KEY, SECRET_KEY } from './config.ts';

export interface GatewayServices {
  auth: HttpService;
  rest: HttpService;
  functions: HttpService;
  storage: HttpService;
  realtime: UpgradeService;
}

const API_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, accept, accept-profile, content-profile, prefer, range, x-supabase-api-version, x-retry-count, traceparent, tracestate, baggage, x-upsert, x-metadata, cache-control',
  'Access-Control-Expose-Headers':
    'content-range, content-location, preference-applied, x-supabase-api-version, x-sb-error-code, retry-after',
  'Access-Control-Max-Age': '3600',
};

/** Supabase services behind the same gateway that the local stack does not run. */
const UNSERVED: [string, string][] = [
  ['/graphql/v1', 'GraphQL (pg_graphql)'],
  ['/realtime/v1/api', "Realtime's REST API (broadcast over HTTP)"],
  ['/pg', 'The database API of Studio (postgres-meta)'],
  ['/analytics/v1', 'Analytics (Logflare)'],
];

/**
 * Paths below `/auth/v1` that Supabase's Kong serves without key-auth: links opened from e-mails
 * and OAuth redirects carry no API key.
 */
const OPEN_AUTH_PATHS = ['/verify', '/callback', '/authorize', '/.well-known/jwks.json'];

/** Kong's key-auth answers (Kong 2.8, as in Supabase's self-hosted `kong.yml`). */
const NO_API_KEY = { message: 'No API key found in request' };
const INVALID_API_KEY = { message: 'Invalid authentication credentials' };
const KEY_REALM = { 'WWW-Authenticate': 'Key realm="kong"' };

type KeyCheck =
  { ok: true } | { ok: false; body: { message: string }; headers: Record<string, string> };

/**
 * Kong's key-auth: the key is the `apikey` header, else the `apikey` query parameter, and must be
 * one of the project's keys (anon, service role, publishable, secret); anything else is a 401
 * before any service sees the request. (Edge Functions have no key-auth on Supabase: their
 * runtime checks `verify_jwt` itself.)
 */
function checkApiKey(
  req: IncomingMessage,
  url: URL,
  keys: { anonKey: string; serviceRoleKey: string },
): KeyCheck {
  const header = req.headers.apikey;
  const key = typeof header === 'string' ? header : url.searchParams.get('apikey');
  if (!key) return { ok: false, body: NO_API_KEY, headers: KEY_REALM };
  const known = [keys.anonKey, keys.serviceRoleKey, PUBLISHABLE_KEY, SECRET_KEY];
  return known.includes(key) ? { ok: true } : { ok: false, body: INVALID_API_KEY, headers: {} };
}

/** Answers a refused WebSocket upgrade with Kong's JSON error on the raw socket. */
function refuseUpgrade(socket: Duplex, body: unknown, headers: Record<string, string>) {
  const text = JSON.stringify(body);
  const lines = [
    'HTTP/1.1 401 Unauthorized',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

/** Kong-style key mapping: `sb_publishable_…`/`sb_secret_…` become the anon/service JWTs. */
function mapApiKeys(req: IncomingMessage, anonKey: string, serviceRoleKey: string) {
  const mapKey = (key: string) => mapApiKey(key, { anonKey, serviceRoleKey });
  const apikey = req.headers.apikey;
  if (typeof apikey === 'string') req.headers.apikey = mapKey(apikey);
  const auth = req.headers.authorization;
  const bearer = auth && /^Bearer\s+(sb_\S+)$/i.exec(auth);
  if (bearer) req.headers.authorization = `Bearer ${mapKey(bearer[1])}`;
  else if (
    !auth &&
    typeof req.headers.apikey === 'string' &&
    req.headers.apikey.startsWith('eyJ')
  ) {
    req.headers.authorization = `Bearer ${req.headers.apikey}`;
  }
}

/** What the gateway does with a path, by the prefix it starts with. */
type Mount =
  | { kind: 'forms' }
  | { kind: 'service'; prefix: string; service: HttpService; protectedApi: boolean; cors: boolean }
  | { kind: 'unserved'; prefix: string; name: string }
  | { kind: 'health' };

/** Routes `prefix` and every path below it (`prefix/…`) to `mount`. */
function mountAt(router: Router<Mount>, prefix: string, mount: Mount) {
  router.on([prefix, `${prefix}/*`], { all: mount });
}

export function createGateway(
  services: GatewayServices,
  keys: { anonKey: string; serviceRoleKey: string },
  log: (message: string) => void,
): http.Server {
  const router = new Router<Mount>();
  // The site owner's rewrite, set up as the README says a production host must be.
  mountAt(router, '/api/forms', { kind: 'forms' });
  // CORS and key-auth as on Supabase's Kong for Auth and REST; Edge Functions check verify_jwt.
  // Storage gets CORS without key-auth, as in self-hosted Supabase's `kong.yml`: signed and
  // public URLs are opened without an API key, and Storage checks the JWT itself.
  const mounts: [string, HttpService, { protectedApi: boolean; cors: boolean }][] = [
    ['/auth/v1', services.auth, { protectedApi: true, cors: true }],
    ['/rest/v1', services.rest, { protectedApi: true, cors: true }],
    ['/storage/v1', services.storage, { protectedApi: false, cors: true }],
    ['/functions/v1', services.functions, { protectedApi: false, cors: false }],
  ];
  for (const [prefix, service, options] of mounts) {
    mountAt(router, prefix, { kind: 'service', prefix, service, ...options });
  }
  for (const [prefix, name] of UNSERVED)
    mountAt(router, prefix, { kind: 'unserved', prefix, name });
  router.on(['/', '/health'], { all: { kind: 'health' } });

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const match = router.match(req.method ?? 'GET', url.pathname);
    const mount = match.kind === 'found' ? match.handler : undefined;
    if (mount?.kind === 'forms') {
      actAsFormsProxy(req);
      const rest = url.pathname.slice('/api'.length); // -> /forms/{id}
      return services.functions.handle(req, res, rest, url);
    }
    if (mount?.kind === 'service') {
      const { prefix, service, protectedApi, cors } = mount;
      const path = url.pathname.slice(prefix.length) || '/';
      if (cors) {
        // Kong's CORS plugin runs first: preflights pass, and refusals carry CORS headers.
        for (const [k, v] of Object.entries(API_CORS)) res.setHeader(k, v);
        if (req.method === 'OPTIONS') {
          res.writeHead(200, { 'Content-Length': 0 });
          return res.end();
        }
      }
      if (protectedApi) {
        // Kong matches route paths by prefix.
        const open = prefix === '/auth/v1' && OPEN_AUTH_PATHS.some((p) => path.startsWith(p));
        const key = open ? ({ ok: true } as const) : checkApiKey(req, url, keys);
        if (!key.ok) {
          req.resume();
          return sendJson(res, 401, key.body, key.headers);
        }
      }
      mapApiKeys(req, keys.anonKey, keys.serviceRoleKey);
      return service.handle(req, res, path, url);
    }
    if (mount?.kind === 'unserved') {
      req.resume();
      for (const [k, v] of Object.entries(API_CORS)) res.setHeader(k, v);
      return sendJson(res, 501, {
        statusCode: '501',
        error: 'not_implemented',
        message: `${mount.name} (${mount.prefix}) is not served by the local stack (see local-stack/README.md)`,
      });
    }
    if (mount?.kind === 'health') {
      return sendJson(res, 200, { status: 'ok', service: 'tinyback local stack' });
    }
    sendJson(res, 404, { message: 'no Route matched with those values' });
  }

  // WebSocket upgrades: Realtime only (with or without a trailing slash).
  const upgrades = new Router<'realtime'>({ ignoreTrailingSlash: true });
  upgrades.on('/realtime/v1/websocket', { all: 'realtime' });

  const server = http.createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      log(`unhandled error for ${req.method} ${req.url}: ${(err as Error)?.stack ?? err}`);
      if (!res.headersSent) sendJson(res, 500, { message: 'An internal error occurred' });
      else res.end();
    });
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (upgrades.match(req.method ?? 'GET', url.pathname).kind === 'found') {
      const key = checkApiKey(req, url, keys);
      if (!key.ok) return refuseUpgrade(socket, key.body, key.headers);
      services.realtime.handleUpgrade(req, socket, head, url);
    } else {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    }
  });
  server.keepAliveTimeout = 5_000;
  return server;
}
