// Stand-in screens for the signed-in area until the dashboard pages are built.
import { Link as RouterLink } from 'react-router-dom';
import { Button, Container, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { displayName, useAuth } from '../../lib/auth';

export function DashboardPlaceholder({ title }: { title: string }) {
  useDocumentTitle(title);
  const { user } = useAuth();
  return (
    <Container maxW="4xl" py={{ base: '10', md: '16' }}>
      <Stack gap="4">
        <Heading as="h1" size="3xl">
          {title}
        </Heading>
        <Text color="fg.muted">
          Welcome, {displayName(user) ?? 'there'}. This area is being built.
        </Text>
        <HStack gap="3" wrap="wrap">
          <Button asChild variant="outline" size="sm">
            <RouterLink to={paths.dashboard}>Dashboard</RouterLink>
          </Button>
          <Button asChild variant="outline" size="sm">
            <RouterLink to={paths.dashboardForms}>Forms</RouterLink>
          </Button>
          <Button asChild variant="outline" size="sm">
            <RouterLink to={paths.dashboardBooking}>Booking</RouterLink>
          </Button>
        </HStack>
      </Stack>
    </Container>
  );
}
