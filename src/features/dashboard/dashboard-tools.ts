// The tools grid on the dashboard (spec §3 "Dashboard tool"): static data, in display order.
import type { IconType } from 'react-icons';
import { LuCalendarDays, LuChartColumn, LuInbox, LuMail } from 'react-icons/lu';
import { paths } from '../../config/paths';

export type ToolStatus = 'active' | 'coming';

export interface DashboardTool {
  name: string;
  description: string;
  route: string;
  status: ToolStatus;
  icon: IconType;
}

export const DASHBOARD_TOOLS: readonly DashboardTool[] = [
  {
    name: 'Form backend',
    description: 'Point any HTML form at tinyback and read every submission here, live.',
    route: paths.dashboardForms,
    status: 'active',
    icon: LuInbox,
  },
  {
    name: 'Booking',
    description: 'Shareable booking links that let visitors pick a time with you.',
    route: paths.dashboardBooking,
    status: 'coming',
    icon: LuCalendarDays,
  },
  {
    name: 'Newsletter',
    description: 'Collect subscribers from your site and send them updates.',
    route: paths.dashboard,
    status: 'coming',
    icon: LuMail,
  },
  {
    name: 'Analytics',
    description: 'Privacy-friendly visitor statistics without cookies or tracking.',
    route: paths.dashboard,
    status: 'coming',
    icon: LuChartColumn,
  },
];
