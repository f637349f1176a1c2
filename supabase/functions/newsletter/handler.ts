// The `newsletter` endpoint as a plain function of (Request, dependencies) → Response:
//   POST /newsletter                 the site's footer: sign up one address to the site's own
//                                    list (the owners' lists' machinery, lists.ts): 202
//                                    {"ok":true} for every valid address, whether new, pending or
//                                    already confirmed; 503 not_configured while no list is the
//                                    site's (set_site_list());
//   POST /newsletter/confirm         spend a confirm token (double opt-in): {"token": "…"} or
//                                    ?token=…, answered in JSON;
//   POST /newsletter/unsubscribe     spend an unsubscribe link of earlier footer mail, likewise
//                                    (also RFC 8058's one-click POST, token in the query);
//   /newsletter/lists/…, /newsletter/u/…   the owners' lists: see lists.ts;
//   /newsletter/campaigns/:id/test   a test of a campaign to its owner: see campaign-test.ts.
// The e-mail's links open the site's /newsletter/confirm and /newsletter/unsubscribe pages, which
// act only when the reader presses their button: a mail scanner that fetches every link neither
// confirms nor unsubscribes anybody. A GET of the function's own link URLs changes nothing either
// and redirects to those pages; only without SITE_URL (no pages to show) does it act and answer in
// plain text. Storage, hashing, tokens and the delivery trigger are injected, so this module runs
// unchanged under Deno and in unit tests.
import { NEWSLETTER } from '../_shared/limits.ts';
import { linkFor, listConfirmLinkPrefix } from './mail.ts';
import { campaignTestRouteOf, handleCampaignTest, type CampaignTestDeps } from './campaign-test.ts';
import { handleListRoute, listRouteOf } from './lists.ts';
import type { ListsDeps } from './model.ts';
import { parseSignup, readSmallBody } from './request-body.ts';
import { functionRoute, matchRoute } from '../_shared/route.ts';

export interface NewsletterDeps {
  /** A fresh unguessable link token (see tokens.ts). */
  newToken(): string;
  /** Starts sending queued e-mail without delaying the answer; must never throw. */
  deliverSoon(): void;
  /** Public URL of this function (the e-mail's links point here when there is no site URL). */
  functionUrl: string;
  /** The site, whose pages the e-mail's links open; null: the links lead to this function. */
  siteUrl: string | null;
  log(message: string): void;
  /** The owners' lists (lists.ts). */
  lists: ListsDeps;
  /** A test of an owner's campaign to themselves (campaign-test.ts). */
  campaignTest: CampaignTestDeps;
}

/** The tokens tokens.ts makes: 32 random bytes, base64url without padding. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** `/newsletter`, `/newsletter/confirm`, `/newsletter/unsubscribe` (and any other name: 404). */
const NEWSLETTER_ROUTE = functionRoute('newsletter', '{/:route([^/]*)}?');

/** The part of the path after the function's name: '' (sign-up), 'confirm', 'unsubscribe', … */
export function routeOf(pathname: string): string | null {
  const groups = matchRoute(NEWSLETTER_ROUTE, pathname);
  return groups ? (groups.route ?? '') : null;
}

// Any site may call the sign-up: the answer says nothing, no credentials are involved, and the
// limits hold per client whatever the page it came from.
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, {
    status,
    headers: { ...CORS, 'Cache-Control': 'no-store', ...headers },
  });
}

const refuse = (status: number, code: string, error: string, headers?: Record<string, string>) =>
  json(status, { ok: false, code, error }, headers);

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      // What supabase-js's functions.invoke sends along.
      'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, accept',
      'Access-Control-Max-Age': '86400',
    },
  });
}

export async function handleRequest(req: Request, deps: NewsletterDeps): Promise<Response> {
  const url = new URL(req.url);
  const testOf = campaignTestRouteOf(url.pathname);
  if (testOf !== null) return handleCampaignTest(req, testOf, deps.campaignTest);
  const listRoute = listRouteOf(url.pathname);
  if (listRoute) return handleListRoute(listRoute, req, url, deps);
  const route = routeOf(url.pathname);
  if (route === '') {
    if (req.method === 'OPTIONS') return preflight();
    if (req.method !== 'POST')
      return refuse(405, 'method_not_allowed', 'Use POST.', { Allow: 'POST, OPTIONS' });
    return handleSignup(req, deps);
  }
  if (route === 'confirm' || route === 'unsubscribe') {
    if (req.method === 'OPTIONS') return preflight();
    if (req.method === 'POST') return handleLinkPost(route, req, url, deps);
    // HEAD is refused: link checkers probe with it.
    if (req.method !== 'GET')
      return refuse(405, 'method_not_allowed', 'Use GET or POST.', {
        Allow: 'GET, POST, OPTIONS',
      });
    return handleLinkGet(route, url.searchParams.get('token') ?? '', deps);
  }
  return refuse(404, 'not_found', 'Not found.');
}

async function handleSignup(req: Request, deps: NewsletterDeps): Promise<Response> {
  const tooLarge = () => refuse(413, 'body_too_large', 'Send one e-mail address per request.');
  let body: Uint8Array | null;
  try {
    body = await readSmallBody(req, NEWSLETTER.maxBodyBytes);
  } catch {
    return refuse(400, 'invalid_body', 'The request body could not be read.');
  }
  if (!body) return tooLarge();

  const parsed = parseSignup(req.headers.get('content-type'), body);
  if (!parsed.ok) {
    if (parsed.problem === 'unsupported_type')
      return refuse(
        415,
        'unsupported_media_type',
        'Send application/json or application/x-www-form-urlencoded.',
      );
    if (parsed.problem === 'invalid_body')
      return refuse(400, 'invalid_body', 'Send exactly one field, email, with one address.');
    return refuse(400, 'invalid_email', 'Please enter a valid email.');
  }

  // The site's list: its client allowance first, as for any list's signup form.
  let gate;
  try {
    gate = await deps.lists.attempt({
      listId: null,
      origin: null,
      client: await deps.lists.clientHash(req),
    });
  } catch (err) {
    deps.log(`checking a sign-up failed: ${(err as Error).message}`);
    return refuse(503, 'storage_failed', 'The sign-up could not be saved. Please try again.');
  }
  if (gate.status === 'rate_limited')
    return refuse(429, 'rate_limited', 'Too many sign-ups from your network. Try again later.', {
      'Retry-After': String(Math.max(1, Math.ceil(gate.retryAfter))),
    });
  if (gate.status !== 'ok') return notConfigured(deps);
  if (gate.captcha) {
    // The footer shows no CAPTCHA widget: a site's list with one takes signups from its own form.
    deps.log(
      'the site list has a CAPTCHA, which the footer cannot show; turn it off for footer signups',
    );
    return refuse(403, 'captcha', 'Sign-ups here need a CAPTCHA this form does not show.');
  }

  let result;
  try {
    result = await deps.lists.subscribe({
      listId: gate.listId,
      email: parsed.email,
      name: null,
      confirmToken: deps.newToken(),
      linkPrefix: listConfirmLinkPrefix(deps),
    });
  } catch (err) {
    deps.log(`storing a sign-up failed: ${(err as Error).message}`);
    return refuse(503, 'storage_failed', 'The sign-up could not be saved. Please try again.');
  }
  if (result.status === 'invalid')
    return refuse(400, 'invalid_email', 'Please enter a valid email.');
  if (result.status === 'not_found') return notConfigured(deps);
  // A confirmation may have been queued (the answer does not say): send it now.
  deps.deliverSoon();
  return json(202, { ok: true });
}

// Said once per worker: until a list is marked, every footer post would say it again (and such a
// post is refused before anything counts it).
let notConfiguredSaid = false;

/** No list is the site's (or it was just deleted): the operator has to choose one. */
function notConfigured(deps: NewsletterDeps): Response {
  if (!notConfiguredSaid) {
    notConfiguredSaid = true;
    deps.log("no list is the site list: run select public.set_site_list('<list id>')");
  }
  return refuse(503, 'not_configured', 'The newsletter is not taking sign-ups yet.');
}

type LinkOutcome = 'confirmed' | 'unsubscribed' | 'invalid';

/** Spends a token; a malformed one cannot be ours, so the database is not asked about it. */
async function spend(
  action: 'confirm' | 'unsubscribe',
  token: string,
  deps: NewsletterDeps,
): Promise<LinkOutcome> {
  if (!TOKEN.test(token)) return 'invalid';
  const outcome =
    action === 'confirm'
      ? await deps.lists.confirm(token)
      : await deps.lists.unsubscribeToken(token);
  return outcome.status;
}

const INVALID_LINK = 'This link is not valid: it has expired or was already used.';

/** The site's page (the page's button posts back here), or without a site: act right away. */
async function handleLinkGet(
  action: 'confirm' | 'unsubscribe',
  token: string,
  deps: NewsletterDeps,
): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
  if (deps.siteUrl) {
    return new Response(null, {
      status: 303,
      headers: { ...headers, Location: linkFor(deps, action, token) },
    });
  }
  // Plain text, never HTML: hosted Supabase serves a function's HTML as text.
  const text = (status: number, message: string) =>
    new Response(`${message}\n`, {
      status,
      headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  let outcome: LinkOutcome;
  try {
    outcome = await spend(action, token, deps);
  } catch (err) {
    deps.log(`${action} failed: ${(err as Error).message}`);
    return text(503, 'Something went wrong on our side. Please open the link again in a moment.');
  }
  if (outcome === 'confirmed') return text(200, 'Your subscription is confirmed.');
  if (outcome === 'unsubscribed')
    return text(200, 'You are unsubscribed and will get no more newsletter e-mail.');
  return text(404, INVALID_LINK);
}

/** The site page's button (JSON `{"token": …}`) or a one-click unsubscribe (token in the query). */
async function handleLinkPost(
  action: 'confirm' | 'unsubscribe',
  req: Request,
  url: URL,
  deps: NewsletterDeps,
): Promise<Response> {
  let token = url.searchParams.get('token');
  let body: Uint8Array | null;
  try {
    body = await readSmallBody(req, NEWSLETTER.maxBodyBytes);
  } catch {
    body = null;
  }
  if (token === null && body && body.length > 0) {
    try {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
      const value = (parsed as { token?: unknown } | null)?.token;
      if (typeof value === 'string') token = value;
    } catch {
      // Not JSON (e.g. RFC 8058's `List-Unsubscribe=One-Click`): no token in the body.
    }
  }
  let outcome: LinkOutcome;
  try {
    outcome = await spend(action, token ?? '', deps);
  } catch (err) {
    deps.log(`${action} failed: ${(err as Error).message}`);
    return refuse(503, 'storage_failed', 'Something went wrong on our side. Please try again.');
  }
  if (outcome === 'invalid') return refuse(404, 'invalid_link', INVALID_LINK);
  return json(200, { ok: true, status: outcome });
}
