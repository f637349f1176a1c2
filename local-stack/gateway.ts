// The API gateway on :54321, standing in for the CLI's Kong: mounts each service under Supabase's
// path, maps the new-style API keys to the demo JWTs, answers CORS for the APIs, routes the
// public form path `/api/forms/{id}` to the `forms` Edge Function, and answers 501 for the
// Supabase services it does not run (Storage, GraphQL, …) instead of a bare 404.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpService, UpgradeService } from './context.ts';
import { actAsFormsProxy } from './forms-proxy.ts';
import { sendJson } from './http.ts';
import { mapApiKey } from './config.ts';

export interface GatewayServices {
  auth: HttpService;
  rest: HttpService;
  functions: HttpService;
  realtime: UpgradeService;
}

const API_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, accept, accept-profile, content-profile, prefer, range, x-supabase-api-version, x-retry-count, traceparent, tracestate, baggage',
  'Access-Control-Expose-Headers':
    'content-range, content-location, preference-applied, x-supabase-api-version, x-sb-error-code, retry-after',
  'Access-Control-Max-Age': '3600',
};

/** Supabase services behind the same gateway that the local stack does not run. */
const UNSERVED: [string, string][] = [
  ['/storage/v1', 'Storage'],
  ['/graphql/v1', 'GraphQL (pg_graphql)'],
  ['/realtime/v1/api', "Realtime's REST API (broadcast over HTTP)"],
  ['/pg', 'The database API of Studio (postgres-meta)'],
  ['/analytics/v1', 'Analytics (Logflare)'],
];

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

export function createGateway(
  services: GatewayServices,
  keys: { anonKey: string; serviceRoleKey: string },
  log: (message: string) => void,
): http.Server {
  const mounts: [string, HttpService, boolean][] = [
    ['/auth/v1', services.auth, true],
    ['/rest/v1', services.rest, true],
    ['/functions/v1', services.functions, false],
  ];

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (url.pathname.startsWith('/api/forms/') || url.pathname === '/api/forms') {
      // The site owner's rewrite, set up as the README says a production host must be.
      actAsFormsProxy(req);
      const rest = url.pathname.slice('/api'.length); // -> /forms/{id}
      return services.functions.handle(req, res, rest, url);
    }
    for (const [prefix, service, cors] of mounts) {
      if (url.pathname === prefix || url.pathname.startsWith(prefix + '/')) {
        if (cors) {
          for (const [k, v] of Object.entries(API_CORS)) res.setHeader(k, v);
          if (req.method === 'OPTIONS') {
            res.writeHead(200, { 'Content-Length': 0 });
            return res.end();
          }
        }
        mapApiKeys(req, keys.anonKey, keys.serviceRoleKey);
        return service.handle(req, res, url.pathname.slice(prefix.length) || '/', url);
      }
    }
    const unserved = UNSERVED.find(
      ([prefix]) => url.pathname === prefix || url.pathname.startsWith(prefix + '/'),
    );
    if (unserved) {
      req.resume();
      for (const [k, v] of Object.entries(API_CORS)) res.setHeader(k, v);
      return sendJson(res, 501, {
        statusCode: '501',
        error: 'not_implemented',
        message: `${unserved[1]} (${unserved[0]}) is not served by the local stack (see local-stack/README.md)`,
      });
    }
    if (url.pathname === '/health' || url.pathname === '/') {
      return sendJson(res, 200, { status: 'ok', service: 'tinyback local stack' });
    }
    sendJson(res, 404, { message: 'no Route matched with those values' });
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      log(`unhandled error for ${req.method} ${req.url}: ${(err as Error)?.stack ?? err}`);
      if (!res.headersSent) sendJson(res, 500, { message: 'An internal error occurred' });
      else res.end();
    });
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (url.pathname === '/realtime/v1/websocket' || url.pathname === '/realtime/v1/websocket/') {
      services.realtime.handleUpgrade(req, socket, head, url);
    } else {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    }
  });
  server.keepAliveTimeout = 5_000;
  return server;
}
