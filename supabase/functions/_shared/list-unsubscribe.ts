// The one-click unsubscribe link of an owner's campaign mail (RFC 8058): the function's URL
// `…/newsletter/u/<subscriberId>/<campaignId or '-'>/<signature>`, which the mail carries in its
// List-Unsubscribe header (the mail program POSTs to it), and the site's page that the mail's body
// links to. The signature (HMAC-SHA-256, base64url) binds subscriber and campaign, so nobody can
// unsubscribe an address whose link they were not sent, and no state is needed to check it.
// Where a deployment names an address (NEWSLETTER_UNSUBSCRIBE_MAILTO), the header also offers
// `mailto:<address>?subject=unsubscribe <code>` for mail programs without one-click: the code is
// the one-click URL's last three path parts (`<subscriberId>/<campaignId>/<signature>`), so the
// operator who reads that mailbox acts on a request by POSTing to `…/newsletter/u/<code>`, and
// a code nobody was sent is refused there like a forged link.
// Pure code (Web Crypto only): the newsletter function verifies, the campaign sender signs.
import { sameText } from './constant-time.ts';
import { isUuid } from './uuid.ts';

/** Stands in the link for "no campaign" (the list's own mail, not a campaign's). */
const NO_CAMPAIGN = '-';

/** 32 bytes of HMAC-SHA-256, base64url without padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** Keeps the link's key apart from any other use of the same secret. */
const PURPOSE = 'tinyback newsletter list-unsubscribe link v1';

/**
 * The secret links are signed with: NEWSLETTER_LINK_SECRET when set (links then survive a rotation
 * of the service-role key), else one derived from the service-role key, secret and per deployment.
 */
export function linkSecretFromEnv(env: (name: string) => string | undefined): string {
  const own = env('NEWSLETTER_LINK_SECRET');
  if (own) return own;
  const serviceKey = env('SUPABASE_SERVICE_ROLE_KEY');
  if (!serviceKey)
    throw new Error('Signing unsubscribe links needs NEWSLETTER_LINK_SECRET or the service key.');
  return `derived:${serviceKey}`;
}

const encoder = new TextEncoder();

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function hmacKey(key: BufferSource): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

// The link key, derived from the secret and imported once per secret (one per process in
// practice): a campaign signs a link per message, and importing the key for each one cost as
// much as the signature and left a CryptoKey of garbage per message.
const keys = new Map<string, Promise<CryptoKey>>();
function linkKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = hmacKey(encoder.encode(secret))
      .then((outer) => crypto.subtle.sign('HMAC', outer, encoder.encode(PURPOSE)))
      .then(hmacKey);
    // A failure is not kept: the next link tries again.
    key.catch(() => keys.delete(secret));
    keys.set(secret, key);
  }
  return key;
}

/** The ids as the link writes them: lower case, '-' for no campaign; null when not ids. */
function canonical(
  subscriberId: string,
  campaignId: string | null,
): { subscriber: string; campaign: string } | null {
  const campaign = campaignId === null || campaignId === NO_CAMPAIGN ? NO_CAMPAIGN : campaignId;
  if (!isUuid(subscriberId) || (campaign !== NO_CAMPAIGN && !isUuid(campaign))) return null;
  return { subscriber: subscriberId.toLowerCase(), campaign: campaign.toLowerCase() };
}

async function signatureOf(subscriber: string, campaign: string, secret: string) {
  const key = await linkKey(secret);
  return base64url(
    await crypto.subtle.sign('HMAC', key, encoder.encode(`${subscriber}.${campaign}`)),
  );
}

export interface SignedUnsubscribe {
  subscriberId: string;
  /** '-' when the link belongs to no campaign. */
  campaignId: string;
  signature: string;
}

/** Signs a subscriber's link (campaign null: the link of mail that is no campaign's). */
export async function signUnsubscribe(
  subscriberId: string,
  campaignId: string | null,
  secret: string,
): Promise<SignedUnsubscribe> {
  const ids = canonical(subscriberId, campaignId);
  if (!ids) throw new Error('An unsubscribe link needs a subscriber id and a campaign id or null.');
  return {
    subscriberId: ids.subscriber,
    campaignId: ids.campaign,
    signature: await signatureOf(ids.subscriber, ids.campaign, secret),
  };
}

/**
 * The ids a link names when its signature is ours (campaign null for '-'), else null. Compared in
 * constant time, so the answer's timing tells nothing about a guessed signature.
 */
export async function verifyUnsubscribe(
  link: { subscriberId: string; campaignId: string; signature: string },
  secret: string,
): Promise<{ subscriberId: string; campaignId: string | null } | null> {
  const ids = canonical(link.subscriberId, link.campaignId);
  if (!ids || !SIGNATURE.test(link.signature)) return null;
  const expected = await signatureOf(ids.subscriber, ids.campaign, secret);
  if (!sameText(expected, link.signature)) return null;
  return {
    subscriberId: ids.subscriber,
    campaignId: ids.campaign === NO_CAMPAIGN ? null : ids.campaign,
  };
}

const trimSlashes = (url: string) => url.replace(/\/+$/, '');

/**
 * The one-click URL for the List-Unsubscribe header: `functionsUrl` is the functions' public base
 * (`https://<project>.supabase.co/functions/v1`). A POST there unsubscribes; a GET changes nothing
 * and leads to the site's page.
 */
export async function listUnsubscribeUrl(
  functionsUrl: string,
  subscriberId: string,
  campaignId: string | null,
  secret: string,
): Promise<string> {
  return listUnsubscribeUrlOf(
    functionsUrl,
    await signUnsubscribe(subscriberId, campaignId, secret),
  );
}

/** The one-click URL of a signed link. */
export function listUnsubscribeUrlOf(functionsUrl: string, link: SignedUnsubscribe): string {
  return `${trimSlashes(functionsUrl)}/newsletter/u/${unsubscribeCode(link)}`;
}

/** The code naming a signed link: `<subscriberId>/<campaignId or '-'>/<signature>`. */
export function unsubscribeCode(link: SignedUnsubscribe): string {
  return `${link.subscriberId}/${link.campaignId}/${link.signature}`;
}

/**
 * A code's parts, for verifyUnsubscribe (which decides whether it is ours), or null when it does
 * not have the code's shape. Takes the mail's subject as it arrives too (`unsubscribe <code>`).
 */
export function parseUnsubscribeCode(text: string): SignedUnsubscribe | null {
  const match =
    /^\s*(?:unsubscribe\s+)?([0-9A-Fa-f-]{36})\/([0-9A-Fa-f-]{36}|-)\/([A-Za-z0-9_-]{43})\s*$/i.exec(
      text,
    );
  if (!match) return null;
  return { subscriberId: match[1], campaignId: match[2], signature: match[3] };
}

// A plain address, strictly: dot-atom of letters, digits, `_`, `+` and `-` before the `@`, a
// host name with a top-level domain after it. Nothing that would need escaping in a mailto URI
// (RFC 6068) or could break the header it stands in.
const MAILTO_ADDRESS =
  /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * NEWSLETTER_UNSUBSCRIBE_MAILTO: the address offered in List-Unsubscribe beside the one-click
 * URL, or null (unset, or not a plain address: then said once through `warn` and left out).
 */
export function unsubscribeMailtoFromEnv(
  env: (name: string) => string | undefined,
  warn: (message: string) => void,
): string | null {
  const value = env('NEWSLETTER_UNSUBSCRIBE_MAILTO')?.trim();
  if (!value) return null;
  const [local = ''] = value.split('@');
  if (MAILTO_ADDRESS.test(value) && local.length <= 64 && value.length <= 254) return value;
  warn(
    'NEWSLETTER_UNSUBSCRIBE_MAILTO is not a plain address such as unsubscribe@example.com: ' +
      'campaign mail offers the one-click URL alone.',
  );
  return null;
}

/**
 * The mailto entry of List-Unsubscribe: `mailto:<address>?subject=unsubscribe%20<code>` (the
 * code's slashes percent-encoded, as RFC 6068 asks of a header field's value). `address` is
 * one unsubscribeMailtoFromEnv accepted.
 */
export function unsubscribeMailtoOf(address: string, link: SignedUnsubscribe): string {
  return `mailto:${address}?subject=${encodeURIComponent(`unsubscribe ${unsubscribeCode(link)}`)}`;
}

/** The site's page for the same link (`/newsletter/unsubscribe`), for the mail's body. */
export function unsubscribePageUrlOf(siteUrl: string, link: SignedUnsubscribe): string {
  const url = new URL(`${trimSlashes(siteUrl)}/newsletter/unsubscribe`);
  url.searchParams.set('u', link.subscriberId);
  url.searchParams.set('c', link.campaignId);
  url.searchParams.set('sig', link.signature);
  return url.toString();
}

/** The unsubscribe link of the mail's body: the site's page, whose button unsubscribes. */
export async function unsubscribePageUrl(
  siteUrl: string,
  subscriberId: string,
  campaignId: string | null,
  secret: string,
): Promise<string> {
  return unsubscribePageUrlOf(siteUrl, await signUnsubscribe(subscriberId, campaignId, secret));
}
