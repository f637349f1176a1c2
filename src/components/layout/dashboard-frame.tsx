// The signed-in area's frame, inside the shared page layout (fixed header above, footer below):
// the sidebar beside the page from the `lg` breakpoint up; below it, the header's one menu button
// opens the same sidebar in a drawer, with the site's pages added (page-menu.ts), and a bar at the
// top of the content shows the connection. The page's content is where 'Skip to content' lands,
// past the sidebar.
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { Box, CloseButton, Drawer, Flex, Link, Portal, Stack, Text } from '@chakra-ui/react';
import { NAV_LINKS } from '../../config/site';
import type { LiveStatus } from '../../lib/live-sync';
import { PAGE_CONTENT_ATTRIBUTE } from '../page-content';
import { HEADER_HEIGHT } from './header';
import { DashboardSidebar } from './dashboard-sidebar';
import { LiveIndicator } from './live-indicator';
import { setPageMenu, usePageMenu } from './page-menu';

export interface DashboardFrameProps {
  /** Unread, non-spam messages; shown beside the Forms link. */
  unreadCount?: number;
  /** The realtime connection, shown discreetly. */
  liveStatus: LiveStatus;
}

const SIDEBAR_WIDTH = '16rem';

export function DashboardFrame({ unreadCount, liveStatus }: DashboardFrameProps) {
  const location = useLocation();
  const menu = usePageMenu();
  const content = useRef<HTMLDivElement>(null);
  // The page's menu while the frame is here; every completed navigation closes it.
  useEffect(() => {
    setPageMenu({ present: true, open: false });
  }, [location.key]);
  useEffect(() => () => setPageMenu({ present: false, open: false }), []);
  // 'Skip to content' lands on the site's <main>, which holds the sidebar too: on to the page.
  useEffect(() => {
    const main = document.getElementById('main');
    const skipSidebar = (event: FocusEvent) => {
      if (event.target === main) content.current?.focus();
    };
    main?.addEventListener('focus', skipSidebar);
    return () => main?.removeEventListener('focus', skipSidebar);
  }, []);

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

      <Box
        flex="1"
        minW="0"
        ref={content}
        id="dashboard-content"
        {...{ [PAGE_CONTENT_ATTRIBUTE]: '' }}
        tabIndex={-1}
        outline="none"
        scrollMarginTop={HEADER_HEIGHT}
      >
        <Flex
          hideFrom="lg"
          align="center"
          justify="flex-end"
          gap="3"
          px="4"
          py="2"
          borderBottomWidth="1px"
          bg="bg.subtle"
        >
          <LiveIndicator status={liveStatus} />
        </Flex>
        <Drawer.Root
          open={menu.open}
          onOpenChange={(details) => setPageMenu({ present: true, open: details.open })}
          placement="start"
          // Only mounted while open, so the page never holds a second, hidden copy of the menu.
          lazyMount
          unmountOnExit
        >
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
                  <DashboardSidebar unreadCount={unreadCount} more={<SiteLinks />} />
                </Drawer.Body>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
        <Outlet />
      </Box>
    </Flex>
  );
}

/** The site's pages, in the drawer: the header's navigation is not shown beside it. */
function SiteLinks() {
  return (
    <Box as="nav" aria-labelledby="site-links-title" borderTopWidth="1px" pt="4">
      <Text
        id="site-links-title"
        fontSize="xs"
        fontWeight="semibold"
        color="fg.muted"
        px="3"
        mb="1"
      >
        Site
      </Text>
      <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
        {NAV_LINKS.map((link) => (
          <li key={link.to}>
            <Link
              asChild
              display="flex"
              px="3"
              py="2"
              rounded="md"
              fontWeight="medium"
              color="fg"
              _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
              _currentPage={{ bg: 'teal.subtle', color: 'teal.fg' }}
            >
              <NavLink to={link.to}>{link.label}</NavLink>
            </Link>
          </li>
        ))}
      </Stack>
    </Box>
  );
}
