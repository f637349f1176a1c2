// How realtime changes reach the dashboard's start page: a booking made, cancelled or moved makes
// the upcoming count stale, and a subscriber who confirms, leaves or is removed the subscriber
// count; each is read again once per burst of changes (refetch-soon.ts).
import type { LiveBinding } from '../../lib/live-sync';
import { refetchSoon } from '../../lib/refetch-soon';
import { subscriberCountKey } from './api/get-subscriber-count';
import { dashboardKeys } from './api/get-upcoming-bookings-count';

export const dashboardLiveBindings: readonly LiveBinding[] = [
  {
    table: 'bookings',
    queryKey: dashboardKeys.upcomingBookings(),
    // A count is an aggregate: recounting is simpler and surer than adjusting it per event.
    apply: (client) => refetchSoon(client, dashboardKeys.upcomingBookings()),
  },
  {
    table: 'list_subscribers',
    queryKey: subscriberCountKey,
    apply: (client) => refetchSoon(client, subscriberCountKey),
  },
];
