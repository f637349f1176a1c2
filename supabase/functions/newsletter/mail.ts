// Composes the newsletter's confirmation e-mail: the confirm link (double opt-in) and the
// unsubscribe link, in a plain-text and an HTML part. Every value placed in HTML is escaped.
import { NEWSLETTER } from '../_shared/limits.ts';
import { escapeHtml } from '../_shared/html.ts';

export interface ConfirmationMail {
  subject: string;
  text: string;
  html: string;
}

/** The site's pages the e-mail's links open (see src/config/paths.ts). */
const SITE_PAGES = {
  confirm: '/newsletter/confirm',
  unsubscribe: '/newsletter/unsubscribe',
  /** Where a list's signup form leads a browser after its post. */
  listCheckInbox: '/newsletter/check-inbox',
} as const;

const trimSlashes = (url: string) => url.replace(/\/+$/, '');

/** A page of the site. */
export function siteLink(siteUrl: string, page: keyof typeof SITE_PAGES): string {
  return `${trimSlashes(siteUrl)}${SITE_PAGES[page]}`;
}

/**
 * A list's confirmation link without its token (list_subscribe() appends it): the site's confirm
 * page, told by `list=1` that the token is a list's, or the function's own URL without a site.
 */
export function listConfirmLinkPrefix(where: {
  siteUrl: string | null;
  functionUrl: string;
}): string {
  return where.siteUrl
    ? `${siteLink(where.siteUrl, 'confirm')}?list=1&token=`
    : `${trimSlashes(where.functionUrl)}/lists/confirm?token=`;
}

/**
 * An e-mail link: the site's page for the action (which acts only when its button is pressed), or
 * the function's own URL when no site is configured.
 */
export function linkFor(
  where: { siteUrl: string | null; functionUrl: string },
  action: 'confirm' | 'unsubscribe',
  token: string,
): string {
  const url = where.siteUrl
    ? new URL(siteLink(where.siteUrl, action))
    : new URL(`${trimSlashes(where.functionUrl)}/${action}`);
  url.searchParams.set('token', token);
  return url.toString();
}

export function composeConfirmation(input: {
  confirmUrl: string;
  unsubscribeUrl: string;
  /** The site the newsletter belongs to, named in the mail when known. */
  siteUrl: string | null;
}): ConfirmationMail {
  const days = Math.round(NEWSLETTER.confirmLinkTtlHours / 24);
  const site = input.siteUrl ? new URL(input.siteUrl).host : null;
  const newsletter = site ? `the newsletter of ${site}` : 'our newsletter';
  const subject = 'Please confirm your newsletter subscription';

  const text = [
    `Someone, hopefully you, asked to receive ${newsletter} at this address.`,
    '',
    'To confirm the subscription, open this link:',
    input.confirmUrl,
    '',
    `The link works for ${days} days. If you did not ask for this, ignore this e-mail: you will`,
    `not be subscribed, and the address is forgotten after ${NEWSLETTER.forgetUnconfirmedAfterDays} days.`,
    '',
    '--',
    'To stop all newsletter e-mail to this address, unsubscribe:',
    input.unsubscribeUrl,
    '',
  ].join('\n');

  const confirm = escapeHtml(input.confirmUrl);
  const unsubscribe = escapeHtml(input.unsubscribeUrl);
  const html =
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">' +
    `<p>Someone, hopefully you, asked to receive ${escapeHtml(newsletter)} at this address.</p>` +
    `<p><a href="${confirm}" style="display:inline-block;padding:10px 16px;background:#0f766e;` +
    'color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold">' +
    'Confirm my subscription</a></p>' +
    `<p style="font-size:13px;color:#555">Or open this link: <a href="${confirm}">${confirm}</a></p>` +
    `<p>The link works for ${days} days. If you did not ask for this, ignore this e-mail: you ` +
    `will not be subscribed, and the address is forgotten after ` +
    `${NEWSLETTER.forgetUnconfirmedAfterDays} days.</p>` +
    '<hr style="border:none;border-top:1px solid #ddd">' +
    `<p style="font-size:12px;color:#666">To stop all newsletter e-mail to this address, ` +
    `<a href="${unsubscribe}">unsubscribe</a>.</p>` +
    '</body></html>';

  return { subject, text, html };
}
