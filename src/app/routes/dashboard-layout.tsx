// The signed-in area: one realtime subscription for the owner's forms and messages, and the
// dashboard frame around the page. Composes the features, which never import each other.
import { DashboardFrame } from '../../components/layout/dashboard-frame';
import { useAuth } from '../../lib/auth';
import { useLiveSync, type LiveBinding } from '../../lib/live-sync';
import { formsLiveBindings } from '../../features/forms';
import { messagesLiveBindings, useUnreadCount } from '../../features/messages';
import { planLiveBindings } from '../../features/plans';
import { useRecordTimeZone } from '../../features/settings/api/record-time-zone';

const LIVE_BINDINGS: readonly LiveBinding[] = [
  ...formsLiveBindings,
  ...messagesLiveBindings,
  ...planLiveBindings,
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
