// The signed-in area: one realtime subscription for the owner's forms, messages, bookings,
// subscribers and campaigns, and the dashboard frame around the page. Composes the features, which never import each other.
import { DashboardFrame } from '../../components/layout/dashboard-frame';
import { useAuth } from '../../lib/auth';
import { useLiveSync, type LiveBinding } from '../../lib/live-sync';
// Only the bindings: the booking and newsletter pages and the start page stay in their own lazy
// chunks.
import { bookingLiveBindings } from '../../features/booking/live-bindings';
import { dashboardLiveBindings } from '../../features/dashboard/live-bindings';
import { formsLiveBindings } from '../../features/forms';
import { messagesLiveBindings, useUnreadCount } from '../../features/messages';
import { newsletterLiveBindings } from '../../features/newsletter/live-bindings';
import { planLiveBindings } from '../../features/plans';
import { useRecordTimeZone } from '../../features/settings/api/record-time-zone';

const LIVE_BINDINGS: readonly LiveBinding[] = [
  ...formsLiveBindings,
  ...messagesLiveBindings,
  ...planLiveBindings,
  ...bookingLiveBindings,
  ...newsletterLiveBindings,
  ...dashboardLiveBindings,
];

export function DashboardLayout() {
  const { user } = useAuth();
  const liveStatus = useLiveSync(user?.id, LIVE_BINDINGS);
  // The owner's zone, for the times in notification mails.
  useRecordTimeZone(user?.id);
  const unreadCount = useUnreadCount();
  return (
    <>
      {/* Signed-in pages are nobody's search result (React hoists this into <head>). */}
      <meta name="robots" content="noindex, nofollow" />
      <DashboardFrame unreadCount={unreadCount} liveStatus={liveStatus} />
    </>
  );
}
