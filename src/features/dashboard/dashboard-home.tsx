// The dashboard's start page: a welcome, the tools grid (the Booking tool with its upcoming
// bookings, the Newsletter tool with its confirmed subscribers), the owner's recent forms (passed in by the app layer from the forms feature) and
// what's new.
import type { ReactNode } from 'react';
import { Box, Container, Grid, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useDocumentTitle } from '../../components/use-document-title';
import { displayName, useAuth } from '../../lib/auth';
import { DASHBOARD_TOOLS } from './dashboard-tools';
import { ToolCard } from './components/tool-card';
import { SubscriberCount } from './components/subscriber-count';
import { UpcomingBookings } from './components/upcoming-bookings';
import { WhatsNew } from './components/whats-new';

export interface DashboardHomeProps {
  /** The recent forms list; it renders nothing when there are none (spec §2). */
  recentForms: ReactNode;
  /** A notice above the page's content (the plan's usage banner); renders nothing when all is well. */
  banner?: ReactNode;
}

export function DashboardHome({ recentForms, banner }: DashboardHomeProps) {
  useDocumentTitle('Dashboard');
  const { user } = useAuth();

  return (
    <Container maxW="6xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Stack gap="1" mb="8">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          Dashboard
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          Welcome back, {displayName(user) ?? 'there'}
        </Text>
      </Stack>
      {banner}
      <Grid
        templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }}
        gap="8"
      >
        <Stack gap="8" minW="0">
          <Box as="section" aria-labelledby="tools-heading">
            <Heading as="h2" size="lg" id="tools-heading" mb="3">
              Your tools
            </Heading>
            <SimpleGrid
              as="ul"
              columns={{ base: 1, sm: 2 }}
              gap="4"
              listStyleType="none"
              m="0"
              p="0"
            >
              {DASHBOARD_TOOLS.map((tool) => (
                <ToolCard
                  key={tool.id}
                  tool={tool}
                  detail={
                    tool.id === 'booking' ? (
                      <UpcomingBookings />
                    ) : tool.id === 'newsletter' ? (
                      <SubscriberCount />
                    ) : undefined
                  }
                />
              ))}
            </SimpleGrid>
          </Box>
          {recentForms}
        </Stack>
        <WhatsNew />
      </Grid>
    </Container>
  );
}
