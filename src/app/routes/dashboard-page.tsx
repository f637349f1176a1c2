// /dashboard: the start page, with the forms feature's recent forms and the plans feature's
// usage banner passed in.
import { DashboardHome } from '../../features/dashboard';
import { RecentForms } from '../../features/forms';
import { UsageBanner } from '../../features/plans';

export function DashboardPage() {
  return <DashboardHome recentForms={<RecentForms />} banner={<UsageBanner />} />;
}
