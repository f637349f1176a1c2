// The one source of truth for the form endpoint's limits. Pure TypeScript with no Deno or browser
// APIs: imported by the `forms` Edge Function and by the site's docs page.

export const LIMITS = {
  /** Largest accepted request body, in bytes (64 KiB). */
  maxBodyBytes: 64 * 1024,
  /** Most fields in one submission (special fields included). */
  maxFields: 50,
  /** Longest field name, in characters. */
  maxFieldNameLength: 100,
  /** Longest `name` value, in characters. */
  maxNameLength: 200,
  /** Longest `email` value, in characters. */
  maxEmailLength: 320,
  /** Longest `message` value, in characters. */
  maxMessageLength: 10_000,
  /** Longest value of any other field, in characters. */
  maxOtherValueLength: 10_000,
  /** Longest `_subject` value, in characters (it becomes a mail header). */
  maxSubjectLength: 200,
  /** Longest `_next` URL, in characters. */
  maxNextUrlLength: 2_000,
  /** Submissions accepted per form and client IP per minute. */
  ratePerMinute: 5,
  /** Submissions accepted per form and client IP per day. */
  ratePerDay: 50,
  /** Submissions accepted per form per minute from all clients together (a backstop). */
  formRatePerMinute: 60,
  /** Notification e-mails queued per account per hour (later messages are stored, not mailed). */
  notificationsPerHour: 100,
  /** Notification e-mails queued per account per day. */
  notificationsPerDay: 1_000,
} as const;

/**
 * Confirmation e-mails of a form's target address. Until the address is confirmed (or is the
 * account's own confirmed e-mail) messages are stored but not e-mailed.
 */
export const CONFIRMATIONS = {
  /** How long a confirmation link works, in hours. */
  linkValidHours: 24,
  /** Shortest time between two confirmation e-mails of one account to one address, in seconds. */
  resendIntervalSeconds: 60,
  /** Confirmation e-mails per account per day. */
  perAccountPerDay: 10,
  /** Confirmation e-mails to one address per day, from all accounts together. */
  perRecipientPerDay: 5,
  /** Mails composed per `_deliver` run at most. */
  batchSize: 20,
} as const;

/** E-mail delivery retries: attempts before giving up, and the backoff between them. */
export const DELIVERY = {
  maxAttempts: 8,
  /** First retry delay in seconds; doubles each attempt. */
  baseDelaySeconds: 30,
  /** Largest delay between two attempts, in seconds. */
  maxDelaySeconds: 6 * 60 * 60,
  /** How long a worker holds a claimed job before another may take it over, in seconds. */
  leaseSeconds: 120,
  /** Longest wait for one provider call (SMTP or HTTP), in milliseconds. */
  sendTimeoutMs: 15_000,
  /** Jobs one `_deliver` call processes at most. */
  batchSize: 20,
} as const;

// The endpoint's special fields, in a module of their own: the site's home page shows them in its
// start-up code, which then carries only them and not every limit the lazy pages read.
export { SPECIAL_FIELDS } from './special-fields.ts';

/**
 * Idempotent posts: a post may carry a key (the `Idempotency-Key` header, or the `_idempotency`
 * field); a repeat of a form's key within the window stores and sends nothing and answers as the
 * first post did.
 */
export const IDEMPOTENCY = {
  header: 'Idempotency-Key',
  /** How long a key is remembered per form, in hours (the database's post_idempotency). */
  windowHours: 24,
  /** A key is 1 to this many visible ASCII characters. */
  maxKeyLength: 255,
} as const;

/**
 * The autoresponder's caps and bounds. Enforced by the database (queue_autoresponse() in
 * 20261127100300_autoresponder_bounded.sql, counted in the action ledger that no deletion
 * touches); stated here for the docs, and tests drive a real post against each.
 */
export const AUTORESPONDER = {
  /** Replies per account per rolling hour. */
  perHour: 50,
  /** Replies per account per rolling day. */
  perDay: 200,
  /** Replies one address receives per day, from all accounts together. */
  perRecipientPerDay: 5,
  /** Replies one visitor network causes per account per day, across the account's forms. */
  perClientPerDay: 3,
  /** Merge fields filled per template (subject and reply each); later ones stay empty. */
  maxMergeFields: 10,
  /** Characters of the visitor's name a reply may carry (links, host names and `@` removed). */
  nameChars: 50,
  /** The merge fields a reply may use: nothing else a visitor typed is ever sent to them. */
  mergeFields: ['name', 'email', 'form'],
} as const;

/**
 * What one account may create or make the product send, beyond the autoresponder. Enforced by the
 * database; the counts live where deleting forms, webhooks, keys or the account resets nothing.
 */
export const ACCOUNT_CAPS = {
  /** Forms an account may create per hour (counted on used_form_ids, kept forever). */
  formsPerHour: 20,
  /** Forms an account may create per day. */
  formsPerDay: 100,
  /** Webhooks per form. */
  webhooksPerForm: 10,
  /** Webhooks per account, across its forms. */
  webhooksPerAccount: 25,
  /** Test events and "send again" per account per minute. */
  manualWebhookSendsPerMinute: 10,
  /** Test events and "send again" per account per day. */
  manualWebhookSendsPerDay: 100,
  /** Webhook attempts per account to one host per minute; more wait for a free slot. */
  webhookAttemptsPerHostPerMinute: 60,
  /** Failed attempts in a row after which a webhook is turned off and its owner told. */
  webhookFailuresBeforeOff: 50,
} as const;

/**
 * Analytics ingestion (`analytics` function). Per client and per site the limits are
 * analytics_collect()'s defaults (60 a minute and 5 000 a day per client and site, 2 000 a minute
 * per site); this one is passed on every event.
 */
export const ANALYTICS = {
  /**
   * Events stored per account per UTC day, over all its sites; counted where deleting sites resets
   * nothing. 100 000 is about four times the daily traffic of the 10-million-a-year site the bench
   * measures (27 000 a day) and bounds one account's year to about 36 million rows, where 50 sites
   * at their per-site limit could store 144 million a day.
   */
  accountEventsPerDay: 100_000,
} as const;

/**
 * The site's footer signup (`newsletter` function, POST /newsletter): one address per request, to
 * the site's own list, so its client limits, cooldown and links are LISTS'.
 */
export const NEWSLETTER = {
  /** Largest accepted request body, in bytes: one address fits many times over. */
  maxBodyBytes: 2 * 1024,
  /** Longest address, in characters (as the lists' check). */
  maxEmailLength: 254,
  /** How long a confirmation link works, in hours (LISTS.confirmLinkTtlDays). */
  confirmLinkTtlHours: 7 * 24,
} as const;

/**
 * Owners' lists: the signup form a list embeds on its site (`newsletter` function, `/lists/…`),
 * passed to list_subscribe() on every call. A client is counted per owner (all their lists).
 */
export const LISTS = {
  /**
   * Largest accepted signup body, in bytes: an address, a name and a CAPTCHA token (up to 8 KiB),
   * even as multipart.
   */
  maxBodyBytes: 16 * 1024,
  /** Longest address, in characters (as the database's check). */
  maxEmailLength: 254,
  /** Longest subscriber name, in characters (as the database's check). */
  maxNameLength: 100,
  /** Signups one client may send to one owner's lists per minute. */
  perClientPerMinute: 5,
  /** Signups one client may send to one owner's lists per day. */
  perClientPerDay: 20,
  /** Confirmation e-mails one address receives per day, from every list together. */
  perRecipientPerDay: 3,
  /**
   * Confirmation e-mails one account's lists send per day together (they carry the owner's words,
   * so visitors' addresses must not turn them into a way to mail strangers).
   */
  perAccountConfirmationsPerDay: 500,
  /** At most one confirmation e-mail per address and list this often, in hours. */
  confirmationCooldownHours: 6,
  /** How long a confirmation link works, in days (list_subscribe() sets it). */
  confirmLinkTtlDays: 7,
} as const;

/** API keys and the read API (`forms-api` function). */
export const API_KEYS = {
  /** Every key starts with this, so a leaked key is recognisable (and found by secret scanners). */
  prefix: 'tb_live_',
  /** Random bytes in a key, written as hex after the prefix (256 bits). */
  randomBytes: 32,
  /** Characters of a key shown in the settings list, the prefix included. */
  visiblePrefixLength: 12,
  /** Longest key name, in characters. */
  maxNameLength: 100,
  /** Active (unrevoked) keys per account. */
  maxActiveKeys: 20,
  /** Requests per key per minute. */
  requestsPerMinute: 60,
  /** Requests per account per minute, all its keys together. */
  requestsPerMinutePerAccount: 120,
  /** Keys an account may create per day (revoking them gives none back). */
  createdPerDay: 20,
  /** Days a revoked key's row is kept before it is deleted. */
  revokedKeptDays: 30,
  /** Entries per page when `limit` is not given. */
  defaultPageSize: 50,
  /** Most entries per page; a larger `limit` is lowered to this. */
  maxPageSize: 100,
  /** Longest Authorization header read, in characters; longer ones are refused unread. */
  maxAuthorizationLength: 256,
} as const;

/**
 * File uploads: the deployment's ceilings. A form's own limits (its Edit dialog's "Files" part)
 * are at most these; the defaults are what a form starts with when its owner turns uploads on.
 */
export const UPLOADS = {
  /** Largest file, in bytes (10 MiB). */
  maxFileBytes: 10 * 1024 * 1024,
  /** Largest submission's files together, in bytes (25 MiB). */
  maxTotalBytes: 25 * 1024 * 1024,
  /** Most files in one submission. */
  maxFiles: 10,
  /** A form's limits until its owner changes them. */
  defaults: { maxFileBytes: 5 * 1024 * 1024, maxTotalBytes: 10 * 1024 * 1024, maxFiles: 3 },
  /** Bytes read from a file's start to judge its kind (kinds.ts). */
  sniffBytes: 4_100,
  /**
   * Multipart bodies one worker reads at once, and how many more may wait their turn before a
   * post is asked to retry (forms/uploads/gate.ts): the worker's memory follows the first number,
   * not how many uploads arrive together.
   */
  streams: { atOnce: 4, waiting: 32 },
  /**
   * How long a signed upload URL works, in seconds: Storage sets it, not the caller (2 hours on
   * hosted Supabase and the local stack; a self-hosted Storage's UPLOAD_SIGNED_URL_EXPIRATION_TIME
   * should not exceed it). The sweep leaves a direct upload's entry alone until they have closed.
   */
  signedUploadSeconds: 2 * 60 * 60,
} as const;

/**
 * Booking pages (`booking` function). The counts are booking_request()'s, passed on every request
 * as its caps; the lengths are the database's checks, applied first so a visitor hears which
 * field is wrong.
 */
export const BOOKING = {
  /** Largest accepted request body, in bytes: a full note fits with room to spare. */
  maxBodyBytes: 16 * 1024,
  /** Booking requests one client may make per minute to one account's pages together. */
  perClientPerMinute: 5,
  /** Booking requests one client may make per day to one account's pages together. */
  perClientPerDay: 20,
  /** Bookings one account accepts per day, over all its booking pages. */
  perAccountPerDay: 200,
  /**
   * Confirmation e-mails one visitor address receives per day, from all pages together; past it
   * the booking still stands (the owner is told), without the visitor's copy.
   */
  visitorMailsPerRecipientPerDay: 3,
  /** Longest visitor name, in characters. */
  maxNameLength: 100,
  /** Longest visitor address, in characters. */
  maxEmailLength: 254,
  /** Longest note to the owner, in characters. */
  maxNoteLength: 2_000,
  /** Longest reason given when the visitor cancels, in characters. */
  maxReasonLength: 1_000,
} as const;

/**
 * Owners' campaigns: how fast and how much the outbox's campaign run sends (campaign_claim() and
 * campaign_begin() in the database hold every sender to them, whichever instance asks).
 */
export const CAMPAIGNS = {
  /** Messages one account's campaigns send per second at most (the deployment's ceiling). */
  perAccountPerSecond: 50,
  /** Campaign messages one account sends per UTC day at most. */
  perAccountPerDay: 50_000,
  /** ...and an account younger than 7 days: nobody mails 100 000 strangers on their first day. */
  newAccountPerDay: 500,
  /** Messages one claim leases at most, over every account (the sender's memory is one batch). */
  batchSize: 200,
  /** Messages marked 'sending' together and sent at once: the most a killed sender leaves uncertain. */
  window: 10,
  /**
   * How long a claim's lease lasts, in seconds (a batch takes about a second per account); a
   * window is begun only in its first half.
   */
  leaseSeconds: 60,
  /** Sending attempts of one message before it is failed for good (4xx answers, outages). */
  maxAttempts: 8,
  /** How long one scheduled run keeps sending, in seconds (the scheduler calls every minute). */
  runSeconds: 45,
  /** Tests of a campaign an account may send itself per hour (campaign_send_test()). */
  testsPerHour: 10,
  /** ...and per day. */
  testsPerDay: 30,
} as const;
