// /dashboard/booking/new and /dashboard/booking/:id: the booking tool is not built yet, so both
// say so clearly and lead back to the booking forms.
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { ArrowLeftIcon, CalendarClockIcon } from 'lucide-react';
import { IconTile } from '../../components/icon-tile';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { findBookingForm } from './sample-booking-forms';

export function BookingComingSoonPage() {
  useDocumentTitle('Coming soon');
  const { id } = useParams<{ id: string }>();
  const form = findBookingForm(id);
  const text = !id
    ? 'Creating your own booking forms is not available yet.'
    : form
      ? `Managing “${form.name}” — its availability, appointments and settings — is not available yet.`
      : 'There is no booking form at this address, and managing booking forms is not available yet.';

  return (
    <Container maxW="2xl" py={{ base: '10', md: '16' }} px={{ base: '4', md: '6' }}>
      <Stack gap="4" align="flex-start">
        <IconTile icon={CalendarClockIcon} size="11" />
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          Coming soon
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          {text} Booking is on its way to tinyback; until then, your sample forms show how it will
          work.
        </Text>
        <Button asChild colorPalette="teal" variant="outline">
          <RouterLink to={paths.dashboardBooking}>
            <ArrowLeftIcon aria-hidden /> Back to your booking forms
          </RouterLink>
        </Button>
      </Stack>
    </Container>
  );
}
