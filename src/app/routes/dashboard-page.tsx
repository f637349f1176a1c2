// /dashboard: the start page, with the forms feature's recent forms and the plans feature's
// usage banner passed in; and the way to /dashboard/analytics.
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

export function DashboardPage() {
  return <DashboardHome recentForms={<RecentForms />} banner={<UsageBanner />} />;
}
