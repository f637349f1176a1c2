// /dashboard: the start page, with the forms feature's recent forms passed in.
import { DashboardHome } from '../../features/dashboard';
import { RecentForms } from '../../features/forms';

export function DashboardPage() {
  return <DashboardHome recentForms={<RecentForms />} />;
}
