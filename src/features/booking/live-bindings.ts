// How realtime changes of `bookings` reach the booking feature's cache: a visitor books or
// cancels, and the lists (and the forms' upcoming counts, which are read from them) follow
// without a reload.
import type { LiveBinding } from '../../lib/live-sync';
import { bookingKeys } from './api/query-keys';
import { applyBookingChange } from './booking-cache';

export const bookingLiveBindings: readonly LiveBinding[] = [
  { table: 'bookings', queryKey: bookingKeys.bookingLists(), apply: applyBookingChange },
];
