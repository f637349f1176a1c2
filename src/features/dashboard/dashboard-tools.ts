// The tools grid on the dashboard (spec §3 "Dashboard tool"): static data, in display order.
import type { LucideIcon } from 'lucide-react';
import { CalendarDaysIcon, ChartColumnIcon, InboxIcon, MailIcon } from 'lucide-react';
import { paths } from '../../config/paths';

type ToolStatus = 'active' | 'coming';

export interface DashboardTool {
  id: 'forms' | 'booking' | 'newsletter' | 'analytics';
  name: string;
  description: string;
  route: string;
  status: ToolStatus;
  icon: LucideIcon;
}

export const DASHBOARD_TOOLS: readonly DashboardTool[] = [
  {
    id: 'forms',
    name: 'Form backend',
    description: 'Point any HTML form at tinyback and read every submission here, live.',
    route: paths.dashboardForms,
    status: 'active',
    icon: InboxIcon,
  },
  {
    id: 'booking',
    name: 'Booking',
    description: 'Shareable booking links that let visitors pick a time with you.',
    route: paths.dashboardBooking,
    status: 'active',
    icon: CalendarDaysIcon,
  },
  {
    id: 'newsletter',
    name: 'Newsletter',
    description: 'Collect subscribers from your site and send them updates.',
    route: paths.dashboardNewsletter,
    status: 'active',
    icon: MailIcon,
  },
  {
    id: 'analytics',
    name: 'Analytics',
    description: 'Privacy-friendly visitor statistics without cookies or tracking.',
    route: paths.dashboardAnalytics,
    status: 'active',
    icon: ChartColumnIcon,
  },
];
