// One booking form: name, description, how many bookings are coming up, 'Manage' and 'Preview'
// (its public page, in a new tab).
import { useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Badge, Button, Card, Heading, HStack, Skeleton, Text } from '@chakra-ui/react';
import { ExternalLinkIcon } from 'lucide-react';
import { paths } from '../../../config/paths';
import { visibleText } from '../../../lib/visible-text';
import type { BookingFormRow } from '../booking-form-schema';

function upcomingText(count: number): string {
  return count === 1 ? '1 upcoming booking' : `${count} upcoming bookings`;
}

export function BookingFormCard({
  form,
  upcoming,
  newTabHintId,
}: {
  form: Pick<BookingFormRow, 'id' | 'slug' | 'name' | 'description' | 'duration_minutes'>;
  /** Confirmed bookings still to come; undefined while they load or when they could not be. */
  upcoming: number | undefined | 'loading';
  /** Id of the page's visually hidden "opens in a new tab" note, read after 'Preview'. */
  newTabHintId: string;
}) {
  const titleId = useId();
  return (
    <Card.Root as="li" variant="outline" h="full" minW="0">
      <Card.Body gap="2">
        <Heading as="h2" size="md" id={titleId} overflowWrap="anywhere">
          {visibleText(form.name)}
        </Heading>
        <Text color="fg.muted" fontSize="sm" flex="1" overflowWrap="anywhere" lineClamp={3}>
          {form.description || `${form.duration_minutes}-minute appointments.`}
        </Text>
        <HStack gap="2" wrap="wrap">
          <Badge variant="subtle" colorPalette="gray">
            {form.duration_minutes} min
          </Badge>
          {upcoming === 'loading' ? (
            <Skeleton height="5" width="32" />
          ) : upcoming === undefined ? null : (
            <Badge variant="subtle" colorPalette={upcoming ? 'teal' : 'gray'}>
              {upcomingText(upcoming)}
            </Badge>
          )}
        </HStack>
      </Card.Body>
      <Card.Footer>
        <HStack gap="2" wrap="wrap">
          {/* Every card has these texts (spec); the card's title describes which one. */}
          <Button asChild size="sm" colorPalette="teal">
            <RouterLink to={paths.dashboardBookingItem(form.id)} aria-describedby={titleId}>
              Manage
            </RouterLink>
          </Button>
          <Button asChild size="sm" variant="outline">
            <a
              href={paths.bookingPublic(form.slug)}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={`${titleId} ${newTabHintId}`}
            >
              Preview <ExternalLinkIcon aria-hidden />
            </a>
          </Button>
        </HStack>
      </Card.Footer>
    </Card.Root>
  );
}
