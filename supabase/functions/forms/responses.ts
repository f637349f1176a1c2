// Builds the endpoint's HTTP responses: 303 redirects for plain browser posts (to the thank-you
// page, or to the site's refusal page when a browser's post is refused), JSON for clients that
// accept it, plain-text errors otherwise (never HTML: hosted Supabase rewrites it), and CORS
// headers for the form's own origin only.
import type { EndpointError } from './errors.ts';
import { refusalPageUrl } from './refusal-page.ts';

/** JSON when the client says it accepts JSON, or sent JSON (an HTML form cannot). */
export function wantsJson(headers: Headers): boolean {
  const accept = (headers.get('accept') ?? '').toLowerCase();
  const type = (headers.get('content-type') ?? '').toLowerCase();
  return accept.includes('application/json') || type.startsWith('application/json');
}

/**
 * A browser navigating (a plain HTML form being sent), not a script: the Fetch Metadata header
 * says so where the browser sends it, else an Accept that asks for HTML. Scripts and `fetch()`
 * calls that did not ask for JSON keep the plain-text answer with its status code.
 */
export function isBrowserNavigation(headers: Headers): boolean {
  const mode = headers.get('sec-fetch-mode');
  if (mode) return mode.trim().toLowerCase() === 'navigate';
  return (headers.get('accept') ?? '').toLowerCase().includes('text/html');
}

/** CORS headers naming exactly the form's origin, or none when the caller is not that origin. */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (!origin) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Retry-After',
    Vary: 'Origin',
  };
}

export function preflightResponse(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(origin),
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      // The fetch embed sends its idempotency key as a header.
      'Access-Control-Allow-Headers': 'content-type, accept, x-requested-with, idempotency-key',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/** What a browser shows after posting when no thank-you page is known (SITE_URL unset). */
const THANK_YOU_TEXT = 'Thank you! Your message has been sent.\n';

export function successResponse(opts: {
  id: string;
  json: boolean;
  /** Where a browser goes next; null: nowhere known, so a neutral thank-you answer instead. */
  redirectTo: string | null;
  corsOrigin: string | null;
}): Response {
  if (opts.json) {
    return Response.json(
      { ok: true, id: opts.id },
      { status: 200, headers: { ...corsHeaders(opts.corsOrigin), 'Cache-Control': 'no-store' } },
    );
  }
  if (opts.redirectTo === null) {
    // Plain text, like the error answers: it reads well in any browser, and hosted Supabase may
    // serve a function's HTML as text anyway.
    return new Response(THANK_YOU_TEXT, {
      status: 200,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
  return new Response(null, {
    status: 303,
    headers: { Location: opts.redirectTo, 'Cache-Control': 'no-store' },
  });
}

export function errorResponse(
  err: EndpointError,
  opts: {
    json: boolean;
    corsOrigin: string | null;
    /**
     * SITE_URL when the refused request is a browser's form post: it is sent (303) to the site's
     * refusal page, which says what happened and leads back to the form. Null: answered here.
     */
    refusalSite?: string | null;
  },
): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (err.retryAfter !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(err.retryAfter)));
  if (err.status === 405) headers.Allow = 'POST, OPTIONS';
  if (!opts.json && opts.refusalSite) {
    // As after a success: the browser shows a page; the code and wait travel in its address.
    return new Response(null, {
      status: 303,
      headers: { ...headers, Location: refusalPageUrl(opts.refusalSite, err) },
    });
  }
  if (opts.json) {
    const body = {
      ok: false,
      error: err.error,
      code: err.code,
      fields: err.fields ?? {},
      ...(err.limit !== undefined && { limit: err.limit }),
    };
    return Response.json(body, {
      status: err.status,
      headers: { ...headers, ...corsHeaders(opts.corsOrigin) },
    });
  }
  const lines = [
    err.error,
    ...Object.entries(err.fields ?? {}).map(([name, problem]) => `${name}: ${problem}`),
  ];
  return new Response(lines.join('\n') + '\n', {
    status: err.status,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
