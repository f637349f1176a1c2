// Public pages reached from a link (an e-mail's confirmation or unsubscribe link, a shared stats
// page, a booking page), loaded in two steps like the analytics page (routes/dashboard-page.tsx): the route table
// in the start-up chunk names this small module, and each page's own list of chunks is named here,
// fetched only when a link is followed. (The start-up chunk is held to the bundle budget.)
import { lazyPage } from '../lazy-page';

/** The link of a target-address confirmation e-mail: public, and without the rest of the dashboard. */
export const ConfirmAddressPage = lazyPage(
  () => import('../../features/forms/components/confirm-address-page'),
  'ConfirmAddressPage',
);

/** A site's stats at its public share link: no sign-in, and none of the dashboard. */
export const SharedStatsPage = lazyPage(
  () => import('../../features/analytics/components/shared-stats-page'),
  'SharedStatsPage',
);

// The newsletter's confirmation and unsubscribe links and the pages they lead to: one chunk.
// The links of owners' lists open the same two paths (told apart by their parameters), and the
// page a list's signup form leads to comes with them.
const newsletterLinkPages = () => import('../../features/newsletter/newsletter-link-pages');
const listLinkPages = () => import('../../features/newsletter/list-link-pages');
export const NewsletterConfirmPage = lazyPage(listLinkPages, 'NewsletterConfirmRoute');
export const NewsletterUnsubscribePage = lazyPage(listLinkPages, 'NewsletterUnsubscribeRoute');
export const ListCheckInboxPage = lazyPage(listLinkPages, 'ListCheckInboxPage');
export const NewsletterConfirmedPage = lazyPage(newsletterLinkPages, 'NewsletterConfirmedPage');
export const NewsletterUnsubscribedPage = lazyPage(
  newsletterLinkPages,
  'NewsletterUnsubscribedPage',
);
export const NewsletterInvalidLinkPage = lazyPage(newsletterLinkPages, 'NewsletterInvalidLinkPage');

// A booking form's public page and the page a booking's e-mail link opens: one chunk.
const bookingPublicPages = () => import('../../features/booking/public');
export const BookingPublicPage = lazyPage(bookingPublicPages, 'BookingPublicPage');
export const BookingManagePage = lazyPage(bookingPublicPages, 'BookingManagePage');
