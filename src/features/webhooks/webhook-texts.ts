// Words of the webhooks settings: the formats' names, a delivery's state, an attempt's outcome,
// why tinyback turned a webhook off, and the database's refusals turned into sentences for the
// owner.
import { ACCOUNT_CAPS } from '../../../supabase/functions/_shared/limits';

/** Failed attempts in a row after which tinyback turns a webhook off (and e-mails its owner). */
export const FAILURES_BEFORE_OFF = ACCOUNT_CAPS.webhookFailuresBeforeOff;

/** Webhooks one form may have. */
export const WEBHOOKS_PER_FORM = ACCOUNT_CAPS.webhooksPerForm;

export const FORMAT_LABELS = {
  json: 'JSON (signed)',
  slack: 'Slack message',
  discord: 'Discord message',
} as const;

export const FORMAT_HINTS = {
  json: 'tinyback’s JSON with the whole message, signed with the secret below.',
  slack: 'For a Slack incoming-webhook URL: a short message in the channel.',
  discord: 'For a Discord channel webhook URL: a short message, mentions switched off.',
} as const;

export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'failed';

export type DeliveryEvent = 'entry.created' | 'test';

/** A test event is tried once, never retried: it is never "Retrying". */
export function deliveryStatusLabel(
  status: DeliveryStatus,
  attempts: number,
  event: DeliveryEvent = 'entry.created',
): string {
  if (status === 'sent') return 'Delivered';
  if (status === 'failed') return 'Failed';
  if (status === 'sending') return 'Sending';
  return attempts === 0 || event === 'test' ? 'Queued' : 'Retrying';
}

export const deliveryStatusColor = (status: DeliveryStatus) =>
  status === 'sent' ? 'green' : status === 'failed' ? 'red' : 'orange';

/** "HTTP 200", or why no HTTP answer came. */
export function attemptOutcome(a: { status_code: number | null; error: string | null }): string {
  if (a.status_code !== null) return `HTTP ${a.status_code}`;
  return a.error ?? 'No answer';
}

const MEDIUM = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * "Turned off after 50 failed attempts in a row on Nov 24, 2026, 2:47 PM." when tinyback turned
 * the webhook off; null when it did not (on, or switched off by its owner).
 */
export function turnedOffNotice(
  webhook: { disabled_reason: string | null; disabled_at: string | null },
  format: Intl.DateTimeFormat = MEDIUM,
): string | null {
  if (webhook.disabled_reason !== 'failing') return null;
  const at = webhook.disabled_at ? new Date(webhook.disabled_at) : null;
  // Newer ICU puts a narrow no-break space before AM/PM; a plain space reads the same.
  const when =
    at && !Number.isNaN(at.getTime())
      ? ` on ${format.format(at).replace(/[\u202f\u00a0]/g, ' ')}`
      : '';
  return `Turned off after ${FAILURES_BEFORE_OFF} failed attempts in a row${when}.`;
}

/** "The last 3 attempts failed." while a webhook is on and failing; null otherwise. */
export function failingStreak(webhook: {
  enabled: boolean;
  consecutive_failures: number;
}): string | null {
  const n = webhook.consecutive_failures;
  if (!webhook.enabled || n <= 0) return null;
  const what = n === 1 ? 'The last attempt' : `The last ${n} attempts`;
  return `${what} failed. After ${FAILURES_BEFORE_OFF} failed attempts in a row the webhook is turned off.`;
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  hint?: unknown;
}

/** The database's own sentences for these refusals (set as the error's hint in the migration). */
const READABLE_HINTS = new Set([
  'webhook_url_refused',
  'webhook_limit',
  'webhook_rate_limited',
  'webhook_already_queued',
]);

/** Whether the database refused the URL itself (shown on the URL field, not the whole form). */
export function isUrlRefusal(error: unknown): boolean {
  return ((error ?? {}) as ErrorLike).hint === 'webhook_url_refused';
}

/** A failed webhook request in words; `action` says what was tried ("add the webhook"). */
export function describeWebhookError(error: unknown, action: string): string {
  const e = (error ?? {}) as ErrorLike;
  if (typeof e.hint === 'string' && READABLE_HINTS.has(e.hint) && typeof e.message === 'string')
    return e.message;
  // Not found: PT404 (404) from the owner RPCs; P0002 from databases before it; PGRST116 from a
  // `.single()` that matched nothing.
  if (e.code === 'PT404' || e.code === 'P0002' || e.code === 'PGRST116')
    return 'This webhook no longer exists. Close the dialog and open it again.';
  if (e.code === '42501') return `You are not allowed to ${action}.`;
  return `Could not ${action}. Check your connection and try again.`;
}
