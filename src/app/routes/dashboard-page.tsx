// /dashboard: the start page, with the forms feature's recent forms and the plans feature's
// usage banner passed in; and the way to the signed-in frame, /dashboard/analytics, the
// booking pages and the newsletter pages.
import { DashboardHome } from '../../features/dashboard';
import { RecentForms } from '../../features/forms';
import { UsageBanner } from '../../features/plans';
import { lazyPage } from '../lazy-page';

/**
 * /dashboard/analytics, loaded in two steps. The route table is in the start-up chunk, and each
 * page it imports costs it the list of the chunks that page needs: the table names this module's
 * loader, which it already has for the dashboard, and this component loads the page.
 */
export const AnalyticsPage = lazyPage(() => import('../../features/analytics'), 'AnalyticsPage');
/** The signed-in frame and its live channel, loaded the same way. */
export const DashboardLayout = lazyPage(() => import('./dashboard-layout'), 'DashboardLayout');
/** /dashboard/booking, and /dashboard/booking/new and /:id (the booking form editor). */
const bookingPages = () => import('../../features/booking');
export const BookingPage = lazyPage(bookingPages, 'BookingPage');
export const BookingFormPage = lazyPage(bookingPages, 'BookingFormPage');
/** /dashboard/newsletter and /dashboard/newsletter/campaigns/:id. */
const newsletterPages = () => import('../../features/newsletter/owner');
export const NewsletterPage = lazyPage(newsletterPages, 'NewsletterPage');
export const CampaignPage = lazyPage(newsletterPages, 'CampaignPage');

export function DashboardPage() {
  return <DashboardHome recentForms={<RecentForms />} banner={<UsageBanner />} />;
}
