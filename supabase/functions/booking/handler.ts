// The `booking` endpoint as a plain function of (Request, dependencies) → Response:
//   POST /booking/book                       book a slot of a booking page: 201 {booking,
//                                            visitorMailed}; 400 invalid_json, 403 captcha,
//                                            404 not_found, 409 slot_taken {next}, 413,
//                                            422 invalid {field}, 429 rate_limited/account_limit
//                                            with Retry-After (the client's request is counted
//                                            before the CAPTCHA and the booking);
//   GET  /booking/manage/:token              the booking behind an unused manage link: 200 {booking};
//   POST /booking/manage/:token/cancel       {reason?}: 200 {status:'cancelled'}, 409
//                                            already_cancelled/past;
//   POST /booking/manage/:token/reschedule   {start}: 200 {booking, manageUrlSent:true}, 409
//                                            slot_taken/past/already_cancelled, 422;
// 404 for an unknown or spent link, 503 with Retry-After whenever the database is away. Every
// answer is JSON, never cached, and open to any origin: the booking page and its iframe live on
// the site, the answers hold nothing beyond what their caller sent or was mailed. The client's
// address never reaches storage: only a salted hash of its rate-limit key does. Storage, the
// hash, the CAPTCHA check and the mail trigger are injected, so this module runs unchanged under
// Deno and in unit tests.
import type { CaptchaVerdict } from '../_shared/captcha.ts';
import { clientIp, rateLimitKey } from '../_shared/client-ip.ts';
import { BOOKING } from '../_shared/limits.ts';
import { readLimited } from '../_shared/read-limited.ts';
import { functionRoute, matchRoute } from '../_shared/route.ts';
import type {
  AttemptResult,
  BookedBooking,
  BookInput,
  BookingPage,
  BookResult,
  CancelResult,
  CaptchaCheck,
  ManagedBooking,
  RescheduleResult,
} from './model.ts';
import { parseBook, parseCancel, parseReschedule, type Parsed } from './request-body.ts';

export interface BookingDeps {
  /** booking_page(): the page's public facts; null when no page has this slug. Throws when away. */
  page(slug: string): Promise<BookingPage | null>;
  /**
   * booking_take_attempt(): counts the client's request (by its hash) before anything else is
   * done for it, or refuses it past the client's allowance.
   */
  takeAttempt(slug: string, client: string): Promise<AttemptResult>;
  /** booking_request(): checks, stores and queues both mails in one transaction. */
  book(input: BookInput): Promise<BookResult>;
  /** The salted hash a client is counted by, from its rate-limit key (_shared/client-hash.ts). */
  clientHash(key: string): Promise<string>;
  manage(token: string): Promise<ManagedBooking | null>;
  cancel(token: string, reason: string): Promise<CancelResult>;
  reschedule(token: string, start: string, linkPrefix: string): Promise<RescheduleResult>;
  /** Verifies a page's CAPTCHA token with its provider; never throws. */
  checkCaptcha: CaptchaCheck;
  /** Starts sending the mail just queued without delaying the answer; must never throw. */
  deliverSoon(): void;
  /** `${SITE_URL}/book/manage?token=`; null when SITE_URL is not set (links would lead nowhere). */
  linkPrefix: string | null;
  /** A fresh id for the honeypot's made-up booking. */
  newId(): string;
  log(message: string): void;
}

const BOOK_ROUTE = functionRoute('booking', '/book');
const MANAGE_ROUTE = functionRoute('booking', '/manage/:token/:action(cancel|reschedule)?');

/** Slugs as the database allows them (3–60 characters); anything else names no page. */
const SLUG = /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/;
/** Manage tokens are URL-safe text; anything else (or longer) names no booking. */
const TOKEN = /^[A-Za-z0-9._~-]{16,256}$/;

/** Seconds a client should wait when the database (or the CAPTCHA provider) cannot be reached. */
const RETRY_AFTER = 5;

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

const refuse = (
  status: number,
  code: string,
  error: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => json(status, { code, error, ...extra }, headers);

const unavailable = () =>
  refuse(
    503,
    'unavailable',
    'Booking is not available right now; please try again in a moment.',
    {},
    { 'Retry-After': String(RETRY_AFTER) },
  );

const notConfigured = () =>
  refuse(503, 'not_configured', 'Booking is not set up on this server yet (SITE_URL is missing).');

const NOT_FOUND_PAGE = 'This booking page does not exist.';
const NOT_FOUND_LINK =
  'This link is not valid: the booking was changed or cancelled since it was sent.';

function preflight(methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Methods': methods,
      // What supabase-js's functions.invoke sends along.
      'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, accept',
      'Access-Control-Max-Age': '86400',
    },
  });
}

const methodNotAllowed = (allow: string) =>
  refuse(405, 'method_not_allowed', `Use ${allow.replace(', OPTIONS', '')}.`, {}, { Allow: allow });

export async function handleRequest(req: Request, deps: BookingDeps): Promise<Response> {
  const url = new URL(req.url);
  if (matchRoute(BOOK_ROUTE, url.pathname)) {
    if (req.method === 'OPTIONS') return preflight('POST, OPTIONS');
    if (req.method !== 'POST') return methodNotAllowed('POST, OPTIONS');
    return handleBook(req, deps);
  }
  const manage = matchRoute(MANAGE_ROUTE, url.pathname);
  if (manage) {
    const action = manage.action ?? null;
    const allow = action ? 'POST, OPTIONS' : 'GET, OPTIONS';
    if (req.method === 'OPTIONS') return preflight(allow);
    if (req.method !== (action ? 'POST' : 'GET')) return methodNotAllowed(allow);
    const token = tokenOf(manage.token);
    if (action === 'cancel') return handleCancel(req, token, deps);
    if (action === 'reschedule') return handleReschedule(req, token, deps);
    return handleManage(token, deps);
  }
  return refuse(404, 'not_found', 'Not found.');
}

/** The token of the path, or null when it cannot be one of ours. */
function tokenOf(raw: string | undefined): string | null {
  let token: string;
  try {
    token = decodeURIComponent(raw ?? '');
  } catch {
    return null;
  }
  return TOKEN.test(token) ? token : null;
}

/** The body up to the cap; null when longer (the client is told 413). */
async function readBody(req: Request): Promise<Uint8Array | null | 'unreadable'> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > BOOKING.maxBodyBytes) {
    await req.body?.cancel().catch(() => undefined);
    return null;
  }
  try {
    return await readLimited(req, BOOKING.maxBodyBytes);
  } catch {
    return 'unreadable';
  }
}

/** Reads and parses a body, or the answer that refuses it. */
async function bodyOf<T>(
  req: Request,
  parse: (bytes: Uint8Array) => Parsed<T>,
): Promise<{ value: T } | { answer: Response }> {
  const bytes = await readBody(req);
  if (bytes === null)
    return {
      answer: refuse(
        413,
        'payload_too_large',
        `A request is at most ${BOOKING.maxBodyBytes} bytes.`,
      ),
    };
  if (bytes === 'unreadable')
    return { answer: refuse(400, 'invalid_json', 'The request body could not be read.') };
  const parsed = parse(bytes);
  if (parsed.ok) return { value: parsed.value };
  if (parsed.problem === 'invalid_json')
    return { answer: refuse(400, 'invalid_json', 'Send a JSON object as the request body.') };
  return { answer: refuse(422, 'invalid', parsed.message, { field: parsed.field }) };
}

const invalidAnswer = (result: { field: string; message: string }) =>
  refuse(422, 'invalid', result.message || 'This value is not accepted.', { field: result.field });

const slotTaken = (next: string[]) =>
  refuse(409, 'slot_taken', 'This time was just taken; please choose another.', { next });

async function handleBook(req: Request, deps: BookingDeps): Promise<Response> {
  const read = await bodyOf(req, parseBook);
  if ('answer' in read) return read.answer;
  const body = read.value;
  const slug = body.slug.toLowerCase();
  if (!SLUG.test(slug)) return refuse(404, 'not_found', NOT_FOUND_PAGE);
  if (!deps.linkPrefix) return notConfigured();

  let page: BookingPage | null;
  try {
    page = await deps.page(slug);
  } catch (err) {
    deps.log(`reading booking page ${slug} failed: ${(err as Error).message}`);
    return unavailable();
  }
  if (!page) return refuse(404, 'not_found', NOT_FOUND_PAGE);

  // A bot that filled the hidden field is told it booked; nothing is stored or mailed (nor
  // counted: a count would be the one trace it left).
  if (body.honeypot) return json(201, { booking: madeUp(page, body, deps), visitorMailed: true });

  // Counted first, whatever comes of it: a client failing the CAPTCHA (or asking for taken
  // times) again and again spends its allowance as one that books.
  const ip = clientIp(req.headers);
  const client = await deps.clientHash(rateLimitKey(ip));
  let attempt: AttemptResult;
  try {
    attempt = await deps.takeAttempt(slug, client);
  } catch (err) {
    deps.log(`counting a request on ${slug} failed: ${(err as Error).message}`);
    return unavailable();
  }
  if (attempt.status === 'not_found') return refuse(404, 'not_found', NOT_FOUND_PAGE);
  if (attempt.status === 'rate_limited')
    return refuse(
      429,
      'rate_limited',
      'Too many booking requests from your network; please try again later.',
      {},
      { 'Retry-After': String(attempt.retryAfter) },
    );

  if (page.captcha_provider) {
    const verdict = await deps.checkCaptcha({
      bookingFormId: page.id,
      provider: page.captcha_provider,
      token: body.captchaToken,
      remoteIp: ip,
    });
    if (!verdict.ok) return captchaRefusal(verdict);
  }

  let result: BookResult;
  try {
    result = await deps.book({
      slug,
      start: body.start,
      name: body.name,
      email: body.email,
      note: body.note,
      visitorTimeZone: body.timeZone,
      client,
      linkPrefix: deps.linkPrefix,
    });
  } catch (err) {
    deps.log(`booking on ${slug} failed: ${(err as Error).message}`);
    return unavailable();
  }

  switch (result.status) {
    case 'booked':
      deps.deliverSoon();
      return json(201, { booking: result.booking, visitorMailed: result.visitorMailed });
    case 'not_found':
      return refuse(404, 'not_found', NOT_FOUND_PAGE);
    case 'invalid':
      return invalidAnswer(result);
    case 'slot_taken':
      return slotTaken(result.next);
    case 'account_limit':
      return refuse(
        429,
        'account_limit',
        'This booking page takes no more bookings today; please try again tomorrow.',
        {},
        { 'Retry-After': String(result.retryAfter) },
      );
  }
}

/** What a booking would have answered, from the page's own facts; never stored. */
function madeUp(
  page: BookingPage,
  body: { start: string; name: string; timeZone: string },
  deps: BookingDeps,
): BookedBooking {
  const starts = Date.parse(body.start);
  return {
    id: deps.newId(),
    starts_at: new Date(starts).toISOString(),
    ends_at: new Date(starts + page.duration_minutes * 60_000).toISOString(),
    name: body.name,
    time_zone: page.time_zone,
    visitor_time_zone: body.timeZone,
    booking_form_name: page.name,
    location: page.location,
    slug: page.slug,
    duration_minutes: page.duration_minutes,
    status: 'confirmed',
  };
}

function captchaRefusal(verdict: Exclude<CaptchaVerdict, { ok: true }>): Response {
  switch (verdict.kind) {
    case 'missing':
      return refuse(403, 'captcha', 'Please complete the CAPTCHA, then book again.');
    case 'rejected':
      return refuse(
        403,
        'captcha',
        'The CAPTCHA could not be verified (it may have expired); please complete it again.',
      );
    // The owner's keys, not the visitor: retrying does not help until the owner fixes them.
    case 'misconfigured':
      return refuse(
        500,
        'captcha_misconfigured',
        "This booking page's CAPTCHA is not set up correctly; its owner needs to check the keys.",
      );
    case 'unavailable':
      return refuse(
        503,
        'captcha_unavailable',
        'The CAPTCHA could not be checked right now; please try again in a moment.',
        {},
        { 'Retry-After': String(RETRY_AFTER) },
      );
  }
}

async function handleManage(token: string | null, deps: BookingDeps): Promise<Response> {
  if (!token) return refuse(404, 'not_found', NOT_FOUND_LINK);
  let booking: ManagedBooking | null;
  try {
    booking = await deps.manage(token);
  } catch (err) {
    deps.log(`reading a manage link failed: ${(err as Error).message}`);
    return unavailable();
  }
  if (!booking) return refuse(404, 'not_found', NOT_FOUND_LINK);
  return json(200, { booking });
}

async function handleCancel(
  req: Request,
  token: string | null,
  deps: BookingDeps,
): Promise<Response> {
  const read = await bodyOf(req, parseCancel);
  if ('answer' in read) return read.answer;
  if (!token) return refuse(404, 'not_found', NOT_FOUND_LINK);
  let result: CancelResult;
  try {
    result = await deps.cancel(token, read.value.reason);
  } catch (err) {
    deps.log(`cancelling a booking failed: ${(err as Error).message}`);
    return unavailable();
  }
  switch (result) {
    case 'cancelled':
      deps.deliverSoon();
      return json(200, { status: 'cancelled' });
    case 'not_found':
      return refuse(404, 'not_found', NOT_FOUND_LINK);
    case 'already_cancelled':
      return refuse(409, 'already_cancelled', 'This booking is already cancelled.');
    case 'past':
      return refuse(409, 'past', 'This booking has already taken place.');
  }
}

async function handleReschedule(
  req: Request,
  token: string | null,
  deps: BookingDeps,
): Promise<Response> {
  const read = await bodyOf(req, parseReschedule);
  if ('answer' in read) return read.answer;
  if (!token) return refuse(404, 'not_found', NOT_FOUND_LINK);
  if (!deps.linkPrefix) return notConfigured();
  let result: RescheduleResult;
  try {
    result = await deps.reschedule(token, read.value.start, deps.linkPrefix);
  } catch (err) {
    deps.log(`moving a booking failed: ${(err as Error).message}`);
    return unavailable();
  }
  switch (result.status) {
    case 'rescheduled':
      deps.deliverSoon();
      // The old link is spent: the new one is in the mail just queued.
      return json(200, { booking: result.booking, manageUrlSent: true });
    case 'not_found':
      return refuse(404, 'not_found', NOT_FOUND_LINK);
    case 'past':
      return refuse(409, 'past', 'This booking has already taken place.');
    case 'already_cancelled':
      return refuse(409, 'already_cancelled', 'This booking is already cancelled.');
    case 'invalid':
      return invalidAnswer(result);
    case 'slot_taken':
      return slotTaken(result.next);
  }
}
