// The read API's HTTP answers: JSON only, never cached, readable from any origin. A key is a
// bearer secret, not an ambient credential (no cookies are read), so CORS opens nothing a page
// could not already do with the key; the docs still tell owners to keep keys on their servers.
import type { ApiError } from './errors.ts';

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
};

export function preflightResponse(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'Access-Control-Allow-Methods': 'GET, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'authorization, accept, content-type',
      'Access-Control-Max-Age': '86400',
    },
  });
}

export function jsonResponse(body: unknown, status = 200): Response {
  return Response.json(body, {
    status,
    headers: { ...CORS_HEADERS, 'Cache-Control': 'no-store' },
  });
}

export function errorResponse(err: ApiError): Response {
  const headers: Record<string, string> = { ...CORS_HEADERS, 'Cache-Control': 'no-store' };
  if (err.retryAfter !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(err.retryAfter)));
  if (err.allow) headers.Allow = err.allow;
  // RFC 6750: tell a client how to authenticate, and why a key was not enough.
  if (err.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="tinyback"';
  if (err.code === 'insufficient_scope')
    headers['WWW-Authenticate'] = 'Bearer realm="tinyback", error="insufficient_scope"';
  const body = { ok: false, error: err.error, code: err.code, fields: err.fields ?? {} };
  return Response.json(body, { status: err.status, headers });
}
