// /book/:id: a booking form's public page, where 'Preview' leads. Booking itself is not built
// yet, so visitors see the form and a clear note instead of a calendar.
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { Eyebrow } from '../../components/eyebrow';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { findBookingForm } from './sample-booking-forms';

export function BookingPreviewPage() {
  const { id } = useParams<{ id: string }>();
  const form = findBookingForm(id);
  useDocumentTitle(form ? `Book: ${form.name}` : 'Booking link not found');

  return (
    <Container maxW="2xl" py={{ base: '10', md: '16' }} px={{ base: '4', md: '6' }}>
      <Stack gap="4">
        <Eyebrow>Booking</Eyebrow>
        {form ? (
          <>
            <Heading as="h1" size="3xl" letterSpacing="-0.02em">
              {form.name}
            </Heading>
            <Text fontSize="lg" color="fg.muted">
              {form.description}
            </Text>
            <Alert.Root status="info" borderRadius="lg">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Online booking opens soon</Alert.Title>
                <Alert.Description>
                  Picking a time here is not available yet. Please check back later.
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          </>
        ) : (
          <>
            <Heading as="h1" size="3xl" letterSpacing="-0.02em">
              Booking link not found
            </Heading>
            <Text fontSize="lg" color="fg.muted">
              This booking link does not exist. Check the address you were given.
            </Text>
          </>
        )}
        <Button asChild variant="outline" alignSelf="flex-start">
          <RouterLink to={paths.home}>Go to the home page</RouterLink>
        </Button>
      </Stack>
    </Container>
  );
}
