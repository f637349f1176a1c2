// A booking form's public link and the iframe that puts its booking page into another site
// (`?embed=1`: the page without the site's header and footer).
import { paths } from '../../config/paths';
import { escapeHtml } from '../../lib/escape-html';

/** The public page's address on this site. */
export function publicBookingUrl(origin: string, slug: string): string {
  return `${origin.replace(/\/+$/, '')}${paths.bookingPublic(encodeURIComponent(slug))}`;
}

/** The iframe snippet to paste into a page. */
export function bookingIframe(origin: string, slug: string, name: string): string {
  const src = `${publicBookingUrl(origin, slug)}?embed=1`;
  return `<iframe src="${escapeHtml(src)}" title="${escapeHtml(`Book: ${name}`)}" width="100%" height="720" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}
