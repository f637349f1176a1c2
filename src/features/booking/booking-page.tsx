// /dashboard/booking: the owner's booking forms (sample data until the booking tool ships) and a
// tile to create a new one.
import { useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Container,
  Heading,
  Link,
  SimpleGrid,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { SAMPLE_BOOKING_FORMS } from './sample-booking-forms';
import { BookingFormCard } from './components/booking-form-card';

export function BookingPage() {
  useDocumentTitle('Your Booking Forms');
  const newTabHintId = useId();

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
      <Alert.Root status="info" variant="subtle" mb="6" borderRadius="lg">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Booking is coming soon</Alert.Title>
          <Alert.Description>
            These are sample forms that show how booking will work; creating and managing your own
            is not available yet.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <VisuallyHidden id={newTabHintId}>Opens in a new tab</VisuallyHidden>
      <SimpleGrid
        as="ul"
        columns={{ base: 1, md: 2, xl: 3 }}
        gap="4"
        listStyleType="none"
        m="0"
        p="0"
      >
        {SAMPLE_BOOKING_FORMS.map((form) => (
          <BookingFormCard key={form.id} form={form} newTabHintId={newTabHintId} />
        ))}
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
    </Container>
  );
}
