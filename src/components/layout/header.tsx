// The fixed top bar: wordmark, main navigation, a mobile menu below the `lg` breakpoint and,
// for a signed-in user, the profile menu; a visitor gets Login and Sign up instead (never a link
// to the page they are on). At most one of the two menus is open at a time. On a page with a menu
// of its own (the dashboard, page-menu.ts), the menu button below `lg` opens that one, which also
// holds the site's pages and the account, and the profile menu leaves the bar there: one menu.
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { Link as RouterLink, NavLink, useLocation } from 'react-router-dom';
import { Box, Button, Container, Flex, HStack, IconButton, Link, Stack } from '@chakra-ui/react';
import { MenuIcon, XIcon } from 'lucide-react';
import { Wordmark } from './wordmark';
import { NAV_LINKS } from '../../config/site';
import { paths } from '../../config/paths';
import { displayName, useAuth } from '../../lib/auth';
import { loadChunk } from '../../lib/chunk-load';
import type { ProfileMenuProps } from './profile-menu';
import { setPageMenu, usePageMenu } from './page-menu';

// Loaded only for a signed-in user (see profile-menu.tsx); should it fail to load, the header
// goes on without it (the dashboard's sidebar has the same links and 'Log out').
const ProfileMenu = lazy<ComponentType<ProfileMenuProps>>(() =>
  loadChunk(() => import('./profile-menu'), 'ProfileMenu').then(
    (module) => ({ default: module.ProfileMenu }),
    () => ({ default: () => null }),
  ),
);

export const HEADER_HEIGHT = '64px';

const navLinkStyle = {
  px: '3',
  py: '2',
  rounded: 'md',
  fontWeight: 'medium',
  color: 'fg.muted',
  _hover: { color: 'fg', bg: 'bg.muted', textDecoration: 'none' },
  _currentPage: { color: 'teal.700', bg: 'teal.50' },
} as const;

/** The visitor's two ways in, minus the one for the page they are on (spec: Login; plus Sign up). */
function visitorLinks(pathname: string) {
  return [
    { label: 'Login', to: paths.login, variant: 'ghost' as const },
    { label: 'Sign up', to: paths.register, variant: 'solid' as const },
  ].filter((link) => link.to !== pathname);
}

export function Header() {
  const { user } = useAuth();
  const pageMenu = usePageMenu();
  const location = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const mobileToggleRef = useRef<HTMLButtonElement>(null);

  // Every completed navigation closes both menus (state adjusted during render, as React
  // recommends, rather than in an effect that would render twice).
  const [seenLocation, setSeenLocation] = useState(location.key);
  if (seenLocation !== location.key) {
    setSeenLocation(location.key);
    setMobileOpen(false);
    setProfileOpen(false);
  }

  // Escape closes the mobile menu and hands focus back to its toggle.
  useEffect(() => {
    if (!mobileOpen) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setMobileOpen(false);
      mobileToggleRef.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [mobileOpen]);

  function toggleMobile() {
    setProfileOpen(false);
    if (pageMenu.present) setPageMenu({ present: true, open: true });
    else setMobileOpen((open) => !open);
  }

  function changeProfile(open: boolean) {
    setProfileOpen(open);
    if (open) setMobileOpen(false);
  }

  const name = displayName(user) ?? 'Unknown User';
  const entryLinks = visitorLinks(location.pathname);

  return (
    <Box
      as="header"
      position="fixed"
      top="0"
      insetX="0"
      zIndex="sticky"
      bg="bg/90"
      backdropFilter="saturate(180%) blur(10px)"
      borderBottomWidth="1px"
    >
      <Container maxW="6xl" h={HEADER_HEIGHT}>
        <Flex h="full" align="center" justify="space-between" gap="4">
          <Wordmark />
          <HStack as="nav" aria-label="Main" gap="1" hideBelow="lg">
            {NAV_LINKS.map((link) => (
              <Link key={link.to} asChild {...navLinkStyle}>
                <NavLink to={link.to}>{link.label}</NavLink>
              </Link>
            ))}
          </HStack>
          <HStack gap="2">
            {user ? (
              // Below `lg` on a page with its own menu, that menu has the account.
              <Box hideBelow={pageMenu.present ? 'lg' : undefined}>
                <Suspense fallback={<Box boxSize="8" />}>
                  <ProfileMenu
                    user={user}
                    name={name}
                    profileOpen={profileOpen}
                    changeProfile={changeProfile}
                  />
                </Suspense>
              </Box>
            ) : (
              entryLinks.map((link) => (
                <Button
                  key={link.to}
                  asChild
                  size="sm"
                  colorPalette="teal"
                  variant={link.variant}
                  // Login stays in the bar at every width (spec); on a phone, Sign up moves into
                  // the menu so the bar never overflows.
                  hideBelow={link.to === paths.register ? 'sm' : undefined}
                >
                  <RouterLink to={link.to}>{link.label}</RouterLink>
                </Button>
              ))
            )}
            <IconButton
              ref={mobileToggleRef}
              hideFrom="lg"
              variant="ghost"
              aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
              // On a page with its own menu: a drawer, which hands the focus back here.
              aria-haspopup={pageMenu.present ? 'dialog' : undefined}
              aria-expanded={mobileOpen || pageMenu.open}
              aria-controls="mobile-menu"
              onClick={toggleMobile}
            >
              {mobileOpen ? <XIcon /> : <MenuIcon />}
            </IconButton>
          </HStack>
        </Flex>
      </Container>
      {mobileOpen && (
        <Box id="mobile-menu" hideFrom="lg" borderTopWidth="1px" bg="bg" shadow="md">
          <Container maxW="6xl" py="3">
            <Stack as="nav" aria-label="Mobile" gap="1">
              {NAV_LINKS.map((link) => (
                <Link key={link.to} asChild {...navLinkStyle} py="3">
                  <NavLink to={link.to}>{link.label}</NavLink>
                </Link>
              ))}
            </Stack>
            {!user && entryLinks.length > 0 && (
              <HStack gap="2" mt="3" pt="3" borderTopWidth="1px">
                {entryLinks.map((link) => (
                  <Button
                    key={link.to}
                    asChild
                    flex="1"
                    colorPalette="teal"
                    variant={link.variant === 'ghost' ? 'outline' : link.variant}
                  >
                    <RouterLink to={link.to}>{link.label}</RouterLink>
                  </Button>
                ))}
              </HStack>
            )}
          </Container>
        </Box>
      )}
    </Box>
  );
}
