// Words of the webhooks settings: the formats' names, a delivery's state, an attempt's outcome,
// and the database's refusals turned into sentences for the owner.

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

export function deliveryStatusLabel(status: DeliveryStatus, attempts: number): string {
  if (status === 'sent') return 'Delivered';
  if (status === 'failed') return 'Failed';
  if (status === 'sending') return 'Sending';
  return attempts === 0 ? 'Queued' : 'Retrying';
}

export const deliveryStatusColor = (status: DeliveryStatus) =>
  status === 'sent' ? 'green' : status === 'failed' ? 'red' : 'orange';

/** "HTTP 200", or why no HTTP answer came. */
export function attemptOutcome(a: { status_code: number | null; error: string | null }): string {
  if (a.status_code !== null) return `HTTP ${a.status_code}`;
  return a.error ?? 'No answer';
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

/** A failed webhook request in words; `action` says what was tried ("add the webhook"). */
export function describeWebhookError(error: unknown, action: string): string {
  const e = (error ?? {}) as ErrorLike;
  if (typeof e.hint === 'string' && READABLE_HINTS.has(e.hint) && typeof e.message === 'string')
    return e.message;
  if (e.code === 'P0002' || e.code === 'PGRST116')
    return 'This webhook no longer exists. Close the dialog and open it again.';
  if (e.code === '42501') return `You are not allowed to ${action}.`;
  return `Could not ${action}. Check your connection and try again.`;
}
