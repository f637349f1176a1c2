// Entry point of the `booking` Edge Function: wires the direct database connection, the CAPTCHA
// check and the outbox worker into the request handler. Everything else lives in pure modules.
//
// A booking, a cancellation and a move each queue their e-mails (with the calendar invitation) in
// the RPC's own transaction; right after, this function's own outbox worker (_shared/outbox/, the
// one the `forms` and `newsletter` functions run) sends them without delaying the answer, so they
// leave within seconds; should that fail, the scheduled run (the `forms` function's `_deliver`)
// retries them.
import { captchaVerifyUrlFromEnv } from '../_shared/captcha.ts';
import { clientSaltFromEnv, hashClientKey } from '../_shared/client-hash.ts';
import { connectDatabase, databaseUrlFromEnv } from '../_shared/database.ts';
import { createOutbox } from '../_shared/outbox/worker.ts';
import { createBookingCaptchaCheck } from './captcha.ts';
import { handleRequest, type BookingDeps } from './handler.ts';
import {
  cancelByToken,
  loadBookingPage,
  loadCaptchaSecret,
  manageBooking,
  requestBooking,
  rescheduleByToken,
  takeAttempt,
} from './store.ts';

const env = (name: string) => Deno.env.get(name);
const log = (message: string) => console.error(`booking: ${message}`);
const warn = (message: string) => console.warn(`booking: ${message}`);

/** SITE_URL without a trailing slash, when it is an http(s) URL. */
function siteUrlFromEnv(): string | null {
  const raw = env('SITE_URL')?.trim().replace(/\/+$/, '');
  let protocol = '';
  try {
    protocol = raw ? new URL(raw).protocol : '';
  } catch {
    // Not a URL: refused below.
  }
  if (protocol === 'http:' || protocol === 'https:') return raw!;
  // Said once per start: the manage links in the e-mails would lead nowhere.
  warn(
    "SITE_URL is not set to an http(s) URL: booking is refused until it names the site's address.",
  );
  return null;
}

const siteUrl = siteUrlFromEnv();
// Clients are counted by a salted hash, as in the newsletter function: never their address.
const salt = clientSaltFromEnv(env);
const db = connectDatabase(databaseUrlFromEnv(env));

// The outbox claims and finishes its jobs over its own small pool, as in the newsletter function.
const outbox = createOutbox({
  client: connectDatabase(databaseUrlFromEnv(env), { max: 2 }),
  env,
  siteUrl,
  log,
  warn,
});

// On Supabase's Edge Runtime, waitUntil keeps the worker alive for work after the answer.
const edgeRuntime = (globalThis as { EdgeRuntime?: { waitUntil?(p: Promise<unknown>): void } })
  .EdgeRuntime;

const deps: BookingDeps = {
  page: (slug) => loadBookingPage(db, slug),
  takeAttempt: (slug, client) => takeAttempt(db, slug, client),
  book: (input) => requestBooking(db, input),
  clientHash: (key) => hashClientKey(key, salt, 'booking'),
  manage: (token) => manageBooking(db, token),
  cancel: (token, reason) => cancelByToken(db, token, reason),
  reschedule: (token, start, linkPrefix) => rescheduleByToken(db, token, start, linkPrefix),
  checkCaptcha: createBookingCaptchaCheck({
    loadSecret: (bookingFormId) => loadCaptchaSecret(db, bookingFormId),
    verifyUrl: captchaVerifyUrlFromEnv(env, warn),
    siteUrl,
    log,
  }),
  // Never throws: failures are logged and the jobs stay queued for the scheduled run.
  deliverSoon: () => {
    const work = outbox.mailSoon();
    edgeRuntime?.waitUntil?.(work);
  },
  linkPrefix: siteUrl ? `${siteUrl}/book/manage?token=` : null,
  newId: () => crypto.randomUUID(),
  log,
};

Deno.serve((req) => handleRequest(req, deps));
