// The signed-in area's frame: sidebar (drawer on small screens) beside the page (skeleton).
import { Outlet } from 'react-router-dom';
import type { LiveStatus } from '../../lib/live-sync';

export interface DashboardFrameProps {
  /** Unread, non-spam messages; shown beside the Forms link. */
  unreadCount?: number;
  /** The realtime connection, shown discreetly. */
  liveStatus: LiveStatus;
}

export function DashboardFrame(_props: DashboardFrameProps) {
  return <Outlet />;
}
