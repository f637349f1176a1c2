// Public share links of a site's stats: the URL an owner copies, and what the page at that URL
// makes of the server's refusals. The token is 32 random bytes, base64url (43 characters).

/** The longest range a shared view asks for, in days (the server refuses longer ones). */
export const SHARED_MAX_RANGE_DAYS = 366;

/** How often the shared page reads "visitors now" (no Realtime for visitors without a session). */
export const SHARED_VISITORS_POLL_MS = 30_000;

/** The route of the public page; the token follows it. */
const SHARE_PATH = '/share/analytics';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether text has the shape of a share token (anything else cannot open a site). */
export function isShareToken(text: string | undefined): text is string {
  return !!text && TOKEN.test(text);
}

/** The public URL of a share token on this site's origin. */
export function shareUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${SHARE_PATH}/${encodeURIComponent(token)}`;
}

function hintOf(error: unknown): unknown {
  return error && typeof error === 'object' ? (error as { hint?: unknown }).hint : undefined;
}

/** The token is unknown or revoked: the link no longer works, and retrying will not help. */
export function isShareGone(error: unknown): boolean {
  return hintOf(error) === 'analytics_share_not_found';
}

/** The link was used too often in the last minute. */
export function isShareBusy(error: unknown): boolean {
  return hintOf(error) === 'analytics_share_rate';
}
