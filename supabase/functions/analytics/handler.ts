// The `analytics` endpoint as a plain function of (Request, dependencies) → Response:
//   POST /analytics/collect   one event from the tracker (text/plain, a CORS simple request that
//                             needs no preflight, or application/json): 202 with no body when it
//                             is stored and when it came from a bot (bots are not told); 400
//                             invalid_event, 403 foreign_host, 404 site_not_found, 413, 429
//                             (rate_limited, or account_limit when the owner's account stored its
//                             daily cap) and 503 with Retry-After otherwise.
// Any page may post (every answer allows any origin): what a page may report is decided by the
// site's domains, checked against the page's URL in the database. The client's address and user
// agent go to analytics_collect() only to be hashed into the day's visitor id and rate-limit key.
// Storage and user-agent parsing are injected, so this module runs unchanged under Deno and in
// unit tests.
import { clientIp, rateLimitKey } from '../_shared/client-ip.ts';
import { readLimited } from '../_shared/read-limited.ts';
import { functionRoute, matchRoute } from '../_shared/route.ts';
import type { CollectInput, CollectResult } from './model.ts';
import { PAYLOAD_LIMITS, parsePayload } from './payload.ts';
import { agentFields, isBot, type ParseAgent } from './user-agent.ts';

export interface AnalyticsDeps {
  /** Checks, counts and stores one event (analytics_collect()); throws when storage is away. */
  collect(input: CollectInput): Promise<CollectResult>;
  /** bowser's parser (a function, so unit tests need no npm package). */
  parseAgent: ParseAgent;
  log(message: string): void;
}

const COLLECT_ROUTE = functionRoute('analytics', '/collect');

/** A user agent longer than this is cut before hashing: no browser sends one. */
const USER_AGENT_MAX = 1_000;

/** Seconds a client should wait when the database cannot be reached. */
const STORAGE_RETRY_AFTER = 5;

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
};

function empty(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, {
    status,
    headers: { ...CORS, 'Cache-Control': 'no-store', ...headers },
  });
}

function refuse(
  status: number,
  code: string,
  error: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { error, code },
    { status, headers: { ...CORS, 'Cache-Control': 'no-store', ...headers } },
  );
}

function preflight(): Response {
  return empty(204, {
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': 'content-type',
    'Access-Control-Max-Age': '86400',
  });
}

/** text/plain (what the tracker sends: no preflight), application/json, or none stated. */
function readableType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === '' || type === 'text/plain' || type === 'application/json';
}

export async function handleRequest(req: Request, deps: AnalyticsDeps): Promise<Response> {
  const url = new URL(req.url);
  if (!matchRoute(COLLECT_ROUTE, url.pathname))
    return refuse(404, 'not_found', 'Events are sent to /analytics/collect.');
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST')
    return refuse(405, 'method_not_allowed', 'Send events with POST.', { Allow: 'POST, OPTIONS' });

  const tooLarge = () =>
    refuse(413, 'payload_too_large', `An event is at most ${PAYLOAD_LIMITS.bodyBytes} bytes.`);
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > PAYLOAD_LIMITS.bodyBytes) return tooLarge();
  if (!readableType(req.headers.get('content-type')))
    return refuse(400, 'invalid_event', 'Send the event as text/plain or application/json.');
  let bytes: Uint8Array | null;
  try {
    bytes = await readLimited(req, PAYLOAD_LIMITS.bodyBytes);
  } catch {
    return refuse(400, 'invalid_event', 'The body could not be read.');
  }
  if (bytes === null) return tooLarge();

  const checked = parsePayload(new TextDecoder().decode(bytes));
  if (!checked.ok) return refuse(400, 'invalid_event', checked.error);

  const userAgent = (req.headers.get('user-agent') ?? '').trim().slice(0, USER_AGENT_MAX);
  if (isBot(userAgent, deps.parseAgent)) return empty(202);

  // No proxy of the owner's leads here: the client is the entry Supabase's gateway appended.
  const ip = clientIp(req.headers);
  let result: CollectResult;
  try {
    result = await deps.collect({
      ...checked.event,
      ...agentFields(userAgent, deps.parseAgent),
      ip,
      clientKey: rateLimitKey(ip),
      userAgent,
    });
  } catch (err) {
    deps.log(`storing an event failed: ${(err as Error).message}`);
    return refuse(
      503,
      'storage_failed',
      'The event could not be stored; please try again in a moment.',
      { 'Retry-After': String(STORAGE_RETRY_AFTER) },
    );
  }

  switch (result.status) {
    case 'accepted':
      return empty(202);
    case 'site_not_found':
      return refuse(404, 'site_not_found', 'No site has this id.');
    case 'foreign_host':
      return refuse(403, 'foreign_host', "The page's host is not one of the site's domains.");
    case 'rate_limited':
      return refuse(429, 'rate_limited', 'Too many events; please slow down.', {
        'Retry-After': String(result.retryAfter),
      });
    case 'account_limit':
      return refuse(
        429,
        'account_limit',
        "The site's account reached its daily limit of stored events; events are counted again from midnight UTC.",
        { 'Retry-After': String(result.retryAfter) },
      );
  }
}
