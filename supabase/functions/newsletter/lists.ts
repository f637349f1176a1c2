// The owners' lists in the `newsletter` endpoint, beside the footer's sign-up (handler.ts):
//   POST /newsletter/lists/:listId   a list's embeddable signup form: an HTML form (urlencoded or
//                                    multipart; 303 to the site's check-your-inbox page) or fetch
//                                    (JSON; 202 {"ok":true}); the database checks the page's
//                                    origin against the list's and counts the client, the list's
//                                    CAPTCHA (if any) is checked, then the database queues the
//                                    double opt-in mail in the owner's words;
//   POST /newsletter/lists/confirm   spend a confirmation token ({"token": "…"} or ?token=…):
//                                    200 {"ok":true,"listName":…} or 404;
//   POST /newsletter/u/:s/:c/:sig    RFC 8058's one-click unsubscribe of campaign mail, signed
//                                    (_shared/list-unsubscribe.ts): 200, never a redirect.
// A GET of the confirmation or unsubscribe URL changes nothing and leads to the site's page:
// confirming waits for its button (subscribing someone must be their own act); unsubscribing is
// posted by the page's script as it opens (one click: no second one to find), which
// link-prefetching mail scanners do not run.
import type { CaptchaProvider, CaptchaVerdict } from '../_shared/captcha.ts';
import { clientIp } from '../_shared/client-ip.ts';
import { LISTS, SPECIAL_FIELDS } from '../_shared/limits.ts';
import { unsubscribePageUrlOf, verifyUnsubscribe } from '../_shared/list-unsubscribe.ts';
import { functionRoute, matchRoute } from '../_shared/route.ts';
import { isUuid } from '../_shared/uuid.ts';
import { listConfirmLinkPrefix, siteLink } from './mail.ts';
import type { ListsDeps } from './model.ts';
import { parseListSignup, readSmallBody } from './request-body.ts';

/** What the owners' routes use of the function's dependencies (handler.ts' NewsletterDeps). */
export interface ListRoutesDeps {
  lists: ListsDeps;
  newToken(): string;
  deliverSoon(): void;
  functionUrl: string;
  siteUrl: string | null;
  log(message: string): void;
}

const CONFIRM_ROUTE = functionRoute('newsletter', '/lists/confirm');
const SIGNUP_ROUTE = functionRoute('newsletter', '/lists/:list([^/]+)');
const UNSUBSCRIBE_ROUTE = functionRoute(
  'newsletter',
  '/u/:subscriber([^/]+)/:campaign([^/]+)/:signature([^/]+)',
);

export type ListRoute =
  | { route: 'confirm' }
  | { route: 'signup'; listId: string }
  | { route: 'unsubscribe'; subscriberId: string; campaignId: string; signature: string };

/** The owners' route a path names, or null when it is none of them. */
export function listRouteOf(pathname: string): ListRoute | null {
  if (matchRoute(CONFIRM_ROUTE, pathname)) return { route: 'confirm' };
  const signup = matchRoute(SIGNUP_ROUTE, pathname);
  if (signup) return { route: 'signup', listId: signup.list ?? '' };
  const link = matchRoute(UNSUBSCRIBE_ROUTE, pathname);
  if (link)
    return {
      route: 'unsubscribe',
      subscriberId: link.subscriber ?? '',
      campaignId: link.campaign ?? '',
      signature: link.signature ?? '',
    };
  return null;
}

/** The tokens tokens.ts makes: 32 random bytes, base64url without padding. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** How long to wait before trying again when the database did not answer, in seconds. */
const RETRY_AFTER_OUTAGE = 30;

const INVALID_LINK = 'This link is not valid: it has expired or was already used.';

/** Normalises an origin or URL to `scheme://host[:port]`; null when it is not http(s). */
function originOf(value: string | null): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The page a request says it comes from: the Origin header, else the Referer's origin. */
function requestOrigin(headers: Headers): string | null {
  const origin = headers.get('origin');
  if (origin !== null) return originOf(origin);
  return originOf(headers.get('referer'));
}

/** JSON when the client asks for it or sent it (an HTML form can do neither). */
function wantsJson(headers: Headers): boolean {
  const accept = (headers.get('accept') ?? '').toLowerCase();
  const type = (headers.get('content-type') ?? '').toLowerCase();
  return accept.includes('application/json') || type.startsWith('application/json');
}

type HeaderMap = Record<string, string>;

/**
 * CORS for the caller's page: any page may ask (the database decides by the origin whether the
 * list takes it, as it must for HTML forms, which CORS does not cover), no credentials are used.
 */
function corsFor(origin: string | null): HeaderMap {
  return origin
    ? {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': 'Retry-After',
        Vary: 'Origin',
      }
    : {};
}

const ANY_ORIGIN: HeaderMap = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
};

function preflight(cors: HeaderMap): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      // A page's fetch, and what supabase-js's functions.invoke sends along.
      'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, accept',
      'Access-Control-Max-Age': '86400',
    },
  });
}

interface Refusal {
  status: number;
  code: string;
  error: string;
  field?: string;
  retryAfter?: number;
}

/** A refusal in JSON (with CORS) or, for a browser's form post, a line of plain text. */
function refusal(r: Refusal, json: boolean, cors: HeaderMap, extra: HeaderMap = {}): Response {
  const headers: HeaderMap = { 'Cache-Control': 'no-store', ...extra };
  if (r.retryAfter !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(r.retryAfter)));
  if (json) {
    const body = { ok: false, code: r.code, error: r.error, ...(r.field && { field: r.field }) };
    return Response.json(body, { status: r.status, headers: { ...headers, ...cors } });
  }
  // Plain text, never HTML: hosted Supabase serves a function's HTML as text.
  return new Response(`${r.error}\n`, {
    status: r.status,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

const text = (status: number, message: string, headers: HeaderMap = {}) =>
  new Response(`${message}\n`, {
    status,
    headers: {
      'Cache-Control': 'no-store',
      'Content-Type': 'text/plain; charset=utf-8',
      ...headers,
    },
  });

const methodNotAllowed = (allow: string, json: boolean, cors: HeaderMap) =>
  refusal({ status: 405, code: 'method_not_allowed', error: `Use ${allow}.` }, json, cors, {
    Allow: `${allow}, OPTIONS`,
  });

const storageFailed = (what: string): Refusal => ({
  status: 503,
  code: 'storage_failed',
  error: `${what} Please try again in a moment.`,
  retryAfter: RETRY_AFTER_OUTAGE,
});

export function handleListRoute(
  route: ListRoute,
  req: Request,
  url: URL,
  deps: ListRoutesDeps,
): Promise<Response> {
  if (route.route === 'signup') return handleSignup(req, route.listId, deps);
  if (route.route === 'confirm') return handleConfirm(req, url, deps);
  return handleUnsubscribe(req, route, deps);
}

// ---- the signup form ----------------------------------------------------------------------------

async function handleSignup(req: Request, listId: string, deps: ListRoutesDeps): Promise<Response> {
  const json = wantsJson(req.headers);
  const origin = requestOrigin(req.headers);
  const cors = corsFor(origin);
  if (req.method === 'OPTIONS') return preflight(origin ? cors : ANY_ORIGIN);
  if (req.method !== 'POST') return methodNotAllowed('POST', json, cors);
  const notFound = () =>
    refusal(
      { status: 404, code: 'not_found', error: 'This signup form no longer exists.' },
      json,
      cors,
    );
  // Not an id: names no list, so storage is not asked.
  if (!isUuid(listId)) return notFound();

  let body: Uint8Array | null;
  try {
    body = await readSmallBody(req, LISTS.maxBodyBytes);
  } catch {
    return refusal(
      { status: 400, code: 'invalid_body', error: 'The request body could not be read.' },
      json,
      cors,
    );
  }
  if (!body)
    return refusal(
      { status: 413, code: 'body_too_large', error: 'Send one e-mail address per request.' },
      json,
      cors,
    );

  const parsed = await parseListSignup(req.headers.get('content-type'), body);
  if (parsed.kind === 'refused')
    return parsed.problem === 'unsupported_type'
      ? refusal(
          {
            status: 415,
            code: 'unsupported_media_type',
            error: 'Send a form (urlencoded or multipart) or application/json.',
          },
          json,
          cors,
        )
      : refusal(
          {
            status: 400,
            code: 'invalid_body',
            error: 'Send one email field, and at most one name.',
          },
          json,
          cors,
        );
  if (parsed.kind === 'invalid')
    return refusal(
      { status: 422, code: 'invalid', error: parsed.message, field: parsed.field },
      json,
      cors,
    );
  // A bot filled the hidden field: it is told what a person is told, and nothing is stored.
  if (parsed.kind === 'honeypot') return signupAccepted(json, cors, deps);

  // The list, the page and the client's allowance first: counted before a CAPTCHA is checked.
  let gate;
  try {
    gate = await deps.lists.attempt({
      listId: listId.toLowerCase(),
      origin,
      client: await deps.lists.clientHash(req),
    });
  } catch (err) {
    deps.log(`checking a list signup failed: ${(err as Error).message}`);
    return refusal(storageFailed('The signup could not be saved.'), json, cors);
  }
  switch (gate.status) {
    case 'not_found':
      return notFound();
    case 'foreign_origin':
      // Not the list's own site: it may not read the answer.
      return refusal(
        {
          status: 403,
          code: 'foreign_origin',
          error: 'This signup form only takes signups from its own site.',
        },
        json,
        {},
      );
    case 'rate_limited':
      return refusal(
        {
          status: 429,
          code: 'rate_limited',
          error: 'Too many signups from your network. Try again later.',
          retryAfter: gate.retryAfter,
        },
        json,
        cors,
      );
  }
  if (gate.captcha) {
    const verdict = await deps.lists.checkCaptcha({
      listId,
      provider: gate.captcha.provider,
      secret: gate.captcha.secret,
      token: parsed.captchaTokens[CAPTCHA_TOKEN_FIELDS[gate.captcha.provider]] ?? null,
      remoteIp: clientIp(req.headers),
      origin,
    });
    if (!verdict.ok) return refusal(captchaRefusal(verdict), json, cors);
  }

  let result;
  try {
    result = await deps.lists.subscribe({
      listId: listId.toLowerCase(),
      email: parsed.email,
      name: parsed.name,
      confirmToken: deps.newToken(),
      linkPrefix: listConfirmLinkPrefix(deps),
    });
  } catch (err) {
    deps.log(`storing a list signup failed: ${(err as Error).message}`);
    return refusal(storageFailed('The signup could not be saved.'), json, cors);
  }
  switch (result.status) {
    case 'ok':
      // A confirmation may have been queued (the answer does not say): send it now.
      deps.deliverSoon();
      return signupAccepted(json, cors, deps);
    case 'not_found':
      return notFound();
    case 'invalid':
      return refusal(
        { status: 422, code: 'invalid', error: result.message, field: result.field },
        json,
        cors,
      );
  }
}

/** The field each provider's widget posts its token in. */
const CAPTCHA_TOKEN_FIELDS: Record<CaptchaProvider, string> = {
  turnstile: SPECIAL_FIELDS.captcha[0],
  hcaptcha: SPECIAL_FIELDS.captcha[1],
  recaptcha: SPECIAL_FIELDS.captcha[2],
};

/** A failed CAPTCHA check, as the signup form's visitor is told. */
function captchaRefusal(verdict: Exclude<CaptchaVerdict, { ok: true }>): Refusal {
  switch (verdict.kind) {
    case 'missing':
      return {
        status: 403,
        code: 'captcha',
        error: 'Please complete the CAPTCHA, then sign up again.',
      };
    case 'rejected':
      return {
        status: 403,
        code: 'captcha',
        error: 'The CAPTCHA could not be verified. Please try it again.',
      };
    case 'misconfigured':
      return {
        status: 500,
        code: 'captcha_misconfigured',
        error: "This signup form's CAPTCHA is not set up correctly. Please tell the site's owner.",
      };
    case 'unavailable':
      return {
        status: 503,
        code: 'captcha_unavailable',
        error: 'The CAPTCHA could not be checked just now. Please try again in a moment.',
        retryAfter: RETRY_AFTER_OUTAGE,
      };
  }
}

const CHECK_INBOX_TEXT =
  'Almost done: if this address is not on the list yet, we have sent it an e-mail with a link ' +
  'to confirm the subscription.';

function signupAccepted(json: boolean, cors: HeaderMap, deps: ListRoutesDeps): Response {
  if (json)
    return Response.json(
      { ok: true },
      { status: 202, headers: { ...cors, 'Cache-Control': 'no-store' } },
    );
  // A browser's form post: the site's page, or a line of our own when there is no site.
  if (!deps.siteUrl) return text(200, CHECK_INBOX_TEXT);
  return new Response(null, {
    status: 303,
    headers: { Location: siteLink(deps.siteUrl, 'listCheckInbox'), 'Cache-Control': 'no-store' },
  });
}

// ---- the confirmation link ----------------------------------------------------------------------

const LINK_HEADERS: HeaderMap = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

async function handleConfirm(req: Request, url: URL, deps: ListRoutesDeps): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight(ANY_ORIGIN);
  const queryToken = url.searchParams.get('token');
  if (req.method === 'GET') return confirmGet(queryToken ?? '', deps);
  // HEAD is refused: link checkers probe with it.
  if (req.method !== 'POST') return methodNotAllowed('GET, POST', true, ANY_ORIGIN);

  let token = queryToken;
  if (token === null) {
    let body: Uint8Array | null = null;
    try {
      body = await readSmallBody(req, LISTS.maxBodyBytes);
    } catch {
      // Unreadable: no token.
    }
    try {
      const value = (
        JSON.parse(new TextDecoder().decode(body ?? new Uint8Array())) as { token?: unknown } | null
      )?.token;
      if (typeof value === 'string') token = value;
    } catch {
      // Not JSON.
    }
    if (token === null)
      return refusal(
        { status: 400, code: 'invalid_body', error: 'Send {"token": "…"}.' },
        true,
        ANY_ORIGIN,
      );
  }
  let outcome;
  try {
    outcome = TOKEN.test(token)
      ? await deps.lists.confirm(token)
      : ({ status: 'invalid' } as const);
  } catch (err) {
    deps.log(`confirming a list signup failed: ${(err as Error).message}`);
    return refusal(storageFailed('Something went wrong on our side.'), true, ANY_ORIGIN);
  }
  if (outcome.status === 'invalid')
    return refusal({ status: 404, code: 'invalid_link', error: INVALID_LINK }, true, ANY_ORIGIN);
  return Response.json(
    { ok: true, listName: outcome.listName },
    { status: 200, headers: { ...ANY_ORIGIN, ...LINK_HEADERS } },
  );
}

/** The site's page (its button posts back here), or without a site: confirm right away. */
async function confirmGet(token: string, deps: ListRoutesDeps): Promise<Response> {
  if (deps.siteUrl)
    return new Response(null, {
      status: 303,
      headers: {
        ...LINK_HEADERS,
        Location: `${listConfirmLinkPrefix(deps)}${encodeURIComponent(token)}`,
      },
    });
  try {
    const outcome = TOKEN.test(token)
      ? await deps.lists.confirm(token)
      : ({ status: 'invalid' } as const);
    if (outcome.status === 'confirmed')
      return text(200, `You're subscribed to ${outcome.listName}.`, LINK_HEADERS);
    return text(404, INVALID_LINK, LINK_HEADERS);
  } catch (err) {
    deps.log(`confirming a list signup failed: ${(err as Error).message}`);
    return text(503, 'Something went wrong on our side. Please open the link again in a moment.', {
      ...LINK_HEADERS,
      'Retry-After': String(RETRY_AFTER_OUTAGE),
    });
  }
}

// ---- one-click unsubscribe ----------------------------------------------------------------------

async function handleUnsubscribe(
  req: Request,
  link: Extract<ListRoute, { route: 'unsubscribe' }>,
  deps: ListRoutesDeps,
): Promise<Response> {
  // The site's page asks for JSON (it shows the list's name); a mail program gets plain text.
  const json = wantsJson(req.headers);
  if (req.method === 'OPTIONS') return preflight(ANY_ORIGIN);
  if (req.method !== 'GET' && req.method !== 'POST')
    return methodNotAllowed('GET, POST', json, ANY_ORIGIN);
  // The body (RFC 8058's `List-Unsubscribe=One-Click`, or anything else) says nothing we need.
  await req.body?.cancel().catch(() => undefined);

  const verified = await verifyUnsubscribe(link, deps.lists.linkSecret);
  if (!verified) {
    const refused = {
      status: 403,
      code: 'invalid_link',
      error: 'This unsubscribe link is not valid.',
    };
    return refusal(refused, json, ANY_ORIGIN, { 'Referrer-Policy': 'no-referrer' });
  }
  if (req.method === 'GET') {
    // Changes nothing: the site's page, whose script posts the unsubscribe as it opens.
    if (deps.siteUrl)
      return new Response(null, {
        status: 303,
        headers: {
          ...LINK_HEADERS,
          Location: unsubscribePageUrlOf(deps.siteUrl, {
            subscriberId: verified.subscriberId,
            campaignId: link.campaignId.toLowerCase(),
            signature: link.signature,
          }),
        },
      });
    return text(
      200,
      "To unsubscribe, use your mail program's Unsubscribe button: opening this link changes nothing.",
      LINK_HEADERS,
    );
  }

  let outcome;
  try {
    outcome = await deps.lists.unsubscribe(verified.subscriberId, verified.campaignId);
  } catch (err) {
    deps.log(`unsubscribing from a list failed: ${(err as Error).message}`);
    return refusal(storageFailed('Something went wrong on our side.'), json, ANY_ORIGIN);
  }
  // The subscriber is gone (the owner removed them, or the list): nothing left to stop.
  if (outcome.status === 'invalid')
    return refusal(
      { status: 404, code: 'invalid_link', error: 'This address is no longer on the list.' },
      json,
      ANY_ORIGIN,
    );
  // RFC 8058: the answer to the one-click POST is final, never a redirect.
  if (json)
    return Response.json(
      { ok: true, listName: outcome.listName },
      { status: 200, headers: { ...ANY_ORIGIN, ...LINK_HEADERS } },
    );
  return text(200, 'You are unsubscribed.', { ...ANY_ORIGIN, ...LINK_HEADERS });
}
