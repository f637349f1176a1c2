// One booking form: name, description, creation date, 'Manage' and 'Preview' (a new tab).
import { useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Card, Heading, HStack, Text } from '@chakra-ui/react';
import { ExternalLinkIcon } from 'lucide-react';
import { paths } from '../../../config/paths';
import type { BookingForm } from '../sample-booking-forms';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

export function BookingFormCard({
  form,
  newTabHintId,
}: {
  form: BookingForm;
  /** Id of the page's visually hidden "opens in a new tab" note, read after 'Preview'. */
  newTabHintId: string;
}) {
  const titleId = useId();
  return (
    <Card.Root as="li" variant="outline" h="full">
      <Card.Body gap="2">
        <Heading as="h2" size="md" id={titleId}>
          {form.name}
        </Heading>
        <Text color="fg.muted" fontSize="sm" flex="1">
          {form.description}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          Created{' '}
          <time dateTime={form.createdAt}>{dateFormat.format(new Date(form.createdAt))}</time>
        </Text>
      </Card.Body>
      <Card.Footer>
        <HStack gap="2" wrap="wrap">
          {/* Two cards share these texts (spec); the card's title describes which one. */}
          <Button asChild size="sm" colorPalette="teal">
            <RouterLink to={paths.dashboardBookingItem(form.id)} aria-describedby={titleId}>
              Manage
            </RouterLink>
          </Button>
          <Button asChild size="sm" variant="outline">
            <a
              href={form.publicLink}
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
