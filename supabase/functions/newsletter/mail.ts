// The links of the newsletter's e-mail: the site's pages they open (or, without a site, the
// function's own URLs). The confirmation e-mail itself is written by list_subscribe().

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
