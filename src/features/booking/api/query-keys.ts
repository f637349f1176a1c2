// Query keys of the booking feature in one place: the fetchers, the mutations and the realtime
// binding address the same cache entries.

/** Which bookings a list shows: one form's or all of them, still to come or over. */
export interface BookingsFilter {
  /** null: every booking form of the owner. */
  formId: string | null;
  when: BookingsWhen;
}

/** Upcoming: not over yet (ends in the future); past: over. */
export type BookingsWhen = 'upcoming' | 'past';

export const bookingKeys = {
  all: ['booking'] as const,
  forms: () => ['booking', 'forms'] as const,
  form: (id: string) => ['booking', 'form', id] as const,
  bookingLists: () => ['booking', 'bookings'] as const,
  bookings: (filter: BookingsFilter) => ['booking', 'bookings', filter] as const,
};

/** The filter of a bookings list's query key, or undefined for any other key. */
export function filterOfKey(key: readonly unknown[]): BookingsFilter | undefined {
  if (key[0] !== 'booking' || key[1] !== 'bookings') return undefined;
  const filter = key[2] as BookingsFilter | undefined;
  return filter && typeof filter === 'object' ? filter : undefined;
}
