// The signed-in area's frame, inside the shared page layout (fixed header above, footer below):
// the sidebar beside the page from the `lg` breakpoint up; below it, a 'Menu' button at the top
// of the content opens the same sidebar in a drawer.
import { useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Box, Button, CloseButton, Drawer, Flex, Portal } from '@chakra-ui/react';
import { MenuIcon } from 'lucide-react';
import type { LiveStatus } from '../../lib/live-sync';
import { HEADER_HEIGHT } from './header';
import { DashboardSidebar } from './dashboard-sidebar';
import { LiveIndicator } from './live-indicator';

export interface DashboardFrameProps {
  /** Unread, non-spam messages; shown beside the Forms link. */
  unreadCount?: number;
  /** The realtime connection, shown discreetly. */
  liveStatus: LiveStatus;
}

const SIDEBAR_WIDTH = '16rem';

export function DashboardFrame({ unreadCount, liveStatus }: DashboardFrameProps) {
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);

  // Every completed navigation closes the drawer (state adjusted during render, as the header
  // does, rather than in an effect that would render twice).
  const [seenLocation, setSeenLocation] = useState(location.key);
  if (seenLocation !== location.key) {
    setSeenLocation(location.key);
    setDrawerOpen(false);
  }

  return (
    <Flex align="stretch" minH={`calc(100dvh - ${HEADER_HEIGHT})`}>
      <Box
        hideBelow="lg"
        w={SIDEBAR_WIDTH}
        flexShrink={0}
        borderRightWidth="1px"
        bg="bg.subtle"
        alignSelf="flex-start"
        position="sticky"
        top={HEADER_HEIGHT}
        h={`calc(100dvh - ${HEADER_HEIGHT})`}
        overflowY="auto"
      >
        <DashboardSidebar
          unreadCount={unreadCount}
          status={<LiveIndicator status={liveStatus} />}
        />
      </Box>

      <Box flex="1" minW="0">
        <Flex
          hideFrom="lg"
          align="center"
          justify="space-between"
          gap="3"
          px="4"
          py="2"
          borderBottomWidth="1px"
          bg="bg.subtle"
        >
          <Drawer.Root
            open={drawerOpen}
            onOpenChange={(details) => setDrawerOpen(details.open)}
            placement="start"
            // Only mounted while open, so the page never holds a second, hidden copy of the menu.
            lazyMount
            unmountOnExit
          >
            <Drawer.Trigger asChild>
              <Button variant="outline" size="sm">
                <MenuIcon aria-hidden /> Menu
              </Button>
            </Drawer.Trigger>
            <Portal>
              <Drawer.Backdrop />
              <Drawer.Positioner>
                <Drawer.Content maxW="20rem">
                  <Drawer.Header py="3" px="4" borderBottomWidth="1px">
                    <Drawer.Title fontSize="md">Menu</Drawer.Title>
                  </Drawer.Header>
                  <Drawer.CloseTrigger asChild top="2" insetEnd="2">
                    <CloseButton size="sm" aria-label="Close menu" />
                  </Drawer.CloseTrigger>
                  <Drawer.Body p="0">
                    <DashboardSidebar unreadCount={unreadCount} />
                  </Drawer.Body>
                </Drawer.Content>
              </Drawer.Positioner>
            </Portal>
          </Drawer.Root>
          <LiveIndicator status={liveStatus} />
        </Flex>
        <Outlet />
      </Box>
    </Flex>
  );
}
