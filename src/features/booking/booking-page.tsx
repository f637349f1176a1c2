// /dashboard/booking: the owner's booking forms, each with how many bookings are coming up, a
// tile to create a new one, and below them the bookings of every form.
import { useId, useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Container,
  Heading,
  Link,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { SettingLoadError } from '../../components/setting-states';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { useBookingForms } from './api/get-booking-forms';
import { useUpcomingBookings } from './api/get-upcoming-bookings';
import { isUpcomingConfirmed } from './bookings';
import { BookingFormCard } from './components/booking-form-card';
import { BookingsList } from './components/bookings-list';
import { useNow } from './use-now';

export function BookingPage() {
  useDocumentTitle('Your Booking Forms');
  const newTabHintId = useId();
  const forms = useBookingForms();
  const upcoming = useUpcomingBookings(null);

  const now = useNow();
  const counts = useMemo(() => {
    const byForm = new Map<string, number>();
    for (const booking of upcoming.data ?? [])
      if (isUpcomingConfirmed(booking, now))
        byForm.set(booking.booking_form_id, (byForm.get(booking.booking_form_id) ?? 0) + 1);
    return byForm;
  }, [upcoming.data, now]);

  const formInfo = useMemo(
    () =>
      new Map(
        (forms.data ?? []).map((form) => [form.id, { name: form.name, time_zone: form.time_zone }]),
      ),
    [forms.data],
  );

  return (
    <Container maxW="6xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Stack gap="1" mb="6">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          Your Booking Forms
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          Manage your booking links and track appointments.
        </Text>
      </Stack>
      <VisuallyHidden id={newTabHintId}>Opens in a new tab</VisuallyHidden>
      {forms.isError ? (
        <SettingLoadError
          title="Your booking forms could not be loaded."
          onRetry={() => void forms.refetch()}
        />
      ) : (
        <SimpleGrid
          as="ul"
          columns={{ base: 1, md: 2, xl: 3 }}
          gap="4"
          listStyleType="none"
          m="0"
          p="0"
          aria-busy={forms.isPending || undefined}
          aria-label="Booking forms"
        >
          {forms.isPending ? (
            <Box as="li">
              <Box role="status" aria-label="Loading your booking forms">
                <Skeleton height="44" borderRadius="l3" />
              </Box>
            </Box>
          ) : (
            forms.data.map((form) => (
              <BookingFormCard
                key={form.id}
                form={form}
                upcoming={
                  upcoming.isPending
                    ? 'loading'
                    : upcoming.isError
                      ? undefined
                      : (counts.get(form.id) ?? 0)
                }
                newTabHintId={newTabHintId}
              />
            ))
          )}
          <Box as="li" minH="44">
            <Link
              asChild
              h="full"
              w="full"
              display="flex"
              flexDirection="column"
              alignItems="center"
              justifyContent="center"
              gap="2"
              p="6"
              borderWidth="2px"
              borderStyle="dashed"
              borderColor="border.emphasized"
              rounded="l3"
              color="fg.muted"
              fontWeight="semibold"
              textAlign="center"
              _hover={{ borderColor: 'teal.500', color: 'teal.700', textDecoration: 'none' }}
            >
              <RouterLink to={paths.dashboardBookingNew}>+ Create new booking form</RouterLink>
            </Link>
          </Box>
        </SimpleGrid>
      )}
      {forms.isSuccess && forms.data.length === 0 && (
        <Text color="fg.muted" mt="4">
          No booking forms yet. Create one to get a link where visitors pick a time with you.
        </Text>
      )}
      {forms.isSuccess && forms.data.length > 0 && (
        <Box mt="10">
          <BookingsList formId={null} forms={formInfo} />
        </Box>
      )}
    </Container>
  );
}
