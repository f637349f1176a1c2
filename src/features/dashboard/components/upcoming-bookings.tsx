// The Booking tool's figure: how many confirmed bookings are still to come. Nothing while it
// loads or when it cannot be read: the card stays useful without it.
import { Skeleton, Text } from '@chakra-ui/react';
import { useUpcomingBookingsCount } from '../api/get-upcoming-bookings-count';

function upcomingBookingsText(count: number): string {
  if (count === 0) return 'No upcoming bookings';
  return count === 1 ? '1 upcoming booking' : `${count} upcoming bookings`;
}

export function UpcomingBookings() {
  const count = useUpcomingBookingsCount();
  if (count.isPending) return <Skeleton height="5" width="40" aria-hidden />;
  if (count.isError) return null;
  return (
    <Text fontSize="sm" fontWeight="semibold" color={count.data ? 'teal.700' : 'fg.muted'}>
      {upcomingBookingsText(count.data)}
    </Text>
  );
}
