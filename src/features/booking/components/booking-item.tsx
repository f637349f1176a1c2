// One booking in a list: when (in the reader's time zone, and in the form's when that reads
// differently), who, their note, and its status; a confirmed booking still to come can be
// cancelled.
import { useId } from 'react';
import { Badge, Box, Button, Flex, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { visibleText } from '../../../lib/visible-text';
import { formatBookingTime, zoneName } from '../booking-time';
import { isUpcoming, type Booking } from '../bookings';

export interface BookingFormInfo {
  name: string;
  time_zone: string;
}

/** What a booking's status badge says. */
function statusText(booking: Pick<Booking, 'status' | 'cancelled_by'>): string {
  if (booking.status !== 'cancelled') return 'Confirmed';
  return booking.cancelled_by === 'owner'
    ? 'Cancelled by owner'
    : booking.cancelled_by === 'visitor'
      ? 'Cancelled by visitor'
      : 'Cancelled';
}

/** When a booking is in the reader's zone, with the zone's name: "Tue, Dec 1, 2026, 9:00 – 9:30 AM (CET)". */
function readerTime(booking: Booking, readerZone?: string): string {
  const time = formatBookingTime(booking.starts_at, booking.ends_at, readerZone);
  const zone = zoneName(booking.starts_at, readerZone);
  return zone ? `${time} (${zone})` : time;
}

export function BookingItem({
  booking,
  form,
  showForm,
  readerZone,
  now,
  onCancel,
}: {
  booking: Booking;
  /** Its form; undefined when the list does not know it. */
  form: BookingFormInfo | undefined;
  /** Name the form (lists of every form). */
  showForm: boolean;
  /** The reader's time zone (the browser's unless a test says). */
  readerZone?: string;
  now: number;
  onCancel: (booking: Booking, when: string) => void;
}) {
  const titleId = useId();
  const when = readerTime(booking, readerZone);
  const formTime = form
    ? formatBookingTime(booking.starts_at, booking.ends_at, form.time_zone)
    : '';
  const readerPlain = formatBookingTime(booking.starts_at, booking.ends_at, readerZone);
  const cancelled = booking.status === 'cancelled';
  const cancellable = !cancelled && isUpcoming(booking, now);

  return (
    <Box
      as="li"
      borderWidth="1px"
      borderRadius="lg"
      p={{ base: '3', md: '4' }}
      bg={cancelled ? 'bg.subtle' : 'bg'}
      minW="0"
    >
      <Flex
        gap="3"
        justify="space-between"
        align="flex-start"
        direction={{ base: 'column', sm: 'row' }}
      >
        <Stack gap="1" minW="0" flex="1">
          <Text
            id={titleId}
            fontWeight="semibold"
            textDecoration={cancelled ? 'line-through' : undefined}
          >
            <time dateTime={booking.starts_at}>{when}</time>
          </Text>
          {form && formTime && formTime !== readerPlain && (
            <Text fontSize="sm" color="fg.muted">
              {formTime} in {form.time_zone}
            </Text>
          )}
          <Flex columnGap="3" wrap="wrap" minW="0">
            <Text fontWeight="medium" overflowWrap="anywhere">
              {visibleText(booking.name)}
            </Text>
            <Link href={`mailto:${booking.email}`} color="teal.700" overflowWrap="anywhere">
              {booking.email}
            </Link>
          </Flex>
          {showForm && (
            <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
              {form ? visibleText(form.name) : 'A deleted booking form'}
            </Text>
          )}
          {booking.note && (
            <Text fontSize="sm" whiteSpace="pre-wrap" overflowWrap="anywhere">
              <Text as="span" color="fg.muted">
                Note:{' '}
              </Text>
              <Text as="span">{booking.note}</Text>
            </Text>
          )}
          {cancelled && booking.cancel_reason && (
            <Text fontSize="sm" whiteSpace="pre-wrap" overflowWrap="anywhere">
              <Text as="span" color="fg.muted">
                Reason:{' '}
              </Text>
              <Text as="span">{booking.cancel_reason}</Text>
            </Text>
          )}
        </Stack>
        <HStack gap="2" flexShrink={0} wrap="wrap">
          <Badge colorPalette={cancelled ? 'red' : 'teal'} variant="subtle">
            {statusText(booking)}
          </Badge>
          {cancellable && (
            <Button
              size="xs"
              variant="outline"
              colorPalette="red"
              aria-describedby={titleId}
              onClick={() => onCancel(booking, when)}
            >
              Cancel
            </Button>
          )}
        </HStack>
      </Flex>
    </Box>
  );
}
