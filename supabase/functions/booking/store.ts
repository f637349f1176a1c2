// The booking RPCs over the direct database connection (_shared/database.ts, or any client with
// supabase-js's `rpc` shape), as the service role: one round trip and one transaction per call.
// Each jsonb answer is read into the function's types; an answer that is none of the statuses the
// RPC knows is an error (the handler answers it as the database being away).
import { isCaptchaProvider } from '../_shared/captcha.ts';
import { BOOKING } from '../_shared/limits.ts';
import type { RpcClient } from '../_shared/outbox/store.ts';
import type {
  AttemptResult,
  BookedBooking,
  BookInput,
  BookingPage,
  BookResult,
  CancelResult,
  InvalidField,
  ManagedBooking,
  RescheduleResult,
} from './model.ts';

type Answer = Record<string, unknown>;

async function call(db: RpcClient, name: string, args: Record<string, unknown>): Promise<unknown> {
  const { data, error } = await db.rpc(name, args);
  if (error) throw new Error(`${name} failed: ${error.message}`);
  return data;
}

const unexpected = (name: string, data: unknown) =>
  new Error(`${name} answered ${JSON.stringify(data)?.slice(0, 300)}`);

const isObject = (value: unknown): value is Answer =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The booking object of an answer, or an error when it lacks what the visitor's page shows. */
function bookingOf(name: string, data: unknown, value: unknown): BookedBooking {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.starts_at !== 'string')
    throw unexpected(name, data);
  return {
    ...value,
    id: value.id,
    starts_at: value.starts_at,
    ends_at: text(value.ends_at),
    name: text(value.name),
    time_zone: text(value.time_zone),
    visitor_time_zone: text(value.visitor_time_zone),
    booking_form_name: text(value.booking_form_name),
    location: text(value.location),
  };
}

const FIELDS: readonly InvalidField[] = ['name', 'email', 'note', 'start', 'time_zone', 'reason'];

function invalidOf(answer: Answer) {
  const field = FIELDS.find((f) => f === answer.field) ?? 'start';
  return { status: 'invalid' as const, field, message: text(answer.message) };
}

function nextOf(answer: Answer): string[] {
  return Array.isArray(answer.next)
    ? answer.next.filter((s): s is string => typeof s === 'string')
    : [];
}

const retryAfterOf = (answer: Answer) => Math.max(1, Math.ceil(Number(answer.retry_after) || 60));

/** The client's allowance booking_take_attempt() counts against, as its p_caps. */
export function attemptCaps() {
  return {
    per_client_minute: BOOKING.perClientPerMinute,
    per_client_day: BOOKING.perClientPerDay,
  };
}

/** The caps booking_request() counts against, as its p_caps. */
export function bookingCaps() {
  return {
    per_account_day: BOOKING.perAccountPerDay,
    per_recipient_day: BOOKING.visitorMailsPerRecipientPerDay,
  };
}

/** The public facts of a booking page (booking_page()); null when no page has this slug. */
export async function loadBookingPage(db: RpcClient, slug: string): Promise<BookingPage | null> {
  const data = await call(db, 'booking_page', { p_slug: slug });
  if (data === null) return null;
  if (!isObject(data) || typeof data.id !== 'string') throw unexpected('booking_page', data);
  return {
    id: data.id,
    slug: text(data.slug),
    name: text(data.name),
    location: text(data.location),
    duration_minutes: Number(data.duration_minutes) || 30,
    time_zone: text(data.time_zone) || 'UTC',
    captcha_provider: isCaptchaProvider(data.captcha_provider) ? data.captcha_provider : null,
  };
}

/** The page's CAPTCHA secret (booking_captcha_secret(), service role only); null when none. */
export async function loadCaptchaSecret(
  db: RpcClient,
  bookingFormId: string,
): Promise<string | null> {
  const data = await call(db, 'booking_captcha_secret', { p_booking_form_id: bookingFormId });
  return typeof data === 'string' && data ? data : null;
}

/**
 * Counts one booking request of a client (its salted hash) before anything else is done for it,
 * whatever its outcome, so a client that keeps failing (the CAPTCHA, a taken slot) keeps spending
 * its allowance.
 */
export async function takeAttempt(
  db: RpcClient,
  slug: string,
  client: string,
): Promise<AttemptResult> {
  const name = 'booking_take_attempt';
  const data = await call(db, name, { p_slug: slug, p_client: client, p_caps: attemptCaps() });
  if (!isObject(data)) throw unexpected(name, data);
  switch (data.status) {
    case 'ok':
    case 'not_found':
      return { status: data.status };
    case 'rate_limited':
      return { status: 'rate_limited', retryAfter: retryAfterOf(data) };
    default:
      throw unexpected(name, data);
  }
}

export async function requestBooking(db: RpcClient, input: BookInput): Promise<BookResult> {
  const name = 'booking_request';
  const data = await call(db, name, {
    p_slug: input.slug,
    p_start: input.start,
    p_name: input.name,
    p_email: input.email,
    p_note: input.note,
    p_visitor_time_zone: input.visitorTimeZone,
    p_client: input.client,
    p_link_prefix: input.linkPrefix,
    p_caps: bookingCaps(),
  });
  if (!isObject(data)) throw unexpected(name, data);
  switch (data.status) {
    case 'booked':
      return {
        status: 'booked',
        booking: bookingOf(name, data, data.booking),
        visitorMailed: data.visitor_mailed === true,
      };
    case 'not_found':
      return { status: 'not_found' };
    case 'invalid':
      return invalidOf(data);
    case 'slot_taken':
      return { status: 'slot_taken', next: nextOf(data) };
    case 'account_limit':
      return { status: 'account_limit', retryAfter: retryAfterOf(data) };
    default:
      throw unexpected(name, data);
  }
}

/** The booking behind an unused manage token; null for a spent, unknown or expired one. */
export async function manageBooking(db: RpcClient, token: string): Promise<ManagedBooking | null> {
  const data = await call(db, 'booking_manage', { p_token: token });
  if (data === null) return null;
  if (!isObject(data) || typeof data.id !== 'string') throw unexpected('booking_manage', data);
  return {
    id: data.id,
    slug: text(data.slug),
    booking_form_name: text(data.booking_form_name),
    location: text(data.location),
    duration_minutes: Number(data.duration_minutes) || 0,
    time_zone: text(data.time_zone),
    visitor_time_zone: text(data.visitor_time_zone),
    starts_at: text(data.starts_at),
    ends_at: text(data.ends_at),
    name: text(data.name),
    status: data.status === 'cancelled' ? 'cancelled' : 'confirmed',
  };
}

export async function cancelByToken(
  db: RpcClient,
  token: string,
  reason: string,
): Promise<CancelResult> {
  const data = await call(db, 'booking_cancel_by_token', { p_token: token, p_reason: reason });
  const status = isObject(data) ? data.status : undefined;
  if (
    status === 'cancelled' ||
    status === 'not_found' ||
    status === 'already_cancelled' ||
    status === 'past'
  )
    return status;
  throw unexpected('booking_cancel_by_token', data);
}

export async function rescheduleByToken(
  db: RpcClient,
  token: string,
  start: string,
  linkPrefix: string,
): Promise<RescheduleResult> {
  const name = 'booking_reschedule_by_token';
  const data = await call(db, name, {
    p_token: token,
    p_start: start,
    p_link_prefix: linkPrefix,
  });
  if (!isObject(data)) throw unexpected(name, data);
  switch (data.status) {
    case 'rescheduled':
      return { status: 'rescheduled', booking: bookingOf(name, data, data.booking) };
    case 'not_found':
    case 'past':
    case 'already_cancelled':
      return { status: data.status };
    case 'invalid':
      return invalidOf(data);
    case 'slot_taken':
      return { status: 'slot_taken', next: nextOf(data) };
    default:
      throw unexpected(name, data);
  }
}
