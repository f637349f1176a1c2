// The signed-in area's sidebar: a search that narrows the menu, the menu itself (tools that are
// not built yet are shown as 'Coming soon', never as links), a self-hosting promo card and the
// signed-in user with a logout button.
import { useState, type ReactNode } from 'react';
import { NavLink, Link as RouterLink } from 'react-router-dom';
import {
  Avatar,
  Badge,
  Box,
  Card,
  Field,
  Flex,
  HStack,
  Icon,
  IconButton,
  Input,
  InputGroup,
  Link,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { LogOutIcon, SearchIcon, ServerIcon } from 'lucide-react';
import { SELF_HOSTING_DOCS } from '../../config/site';
import { displayName, useAuth } from '../../lib/auth';
import { useSignOut } from './use-sign-out';
import {
  DASHBOARD_NAV,
  filterNavEntries,
  unreadBadgeText,
  type ComingSoonEntry,
  type NavLinkEntry,
} from './dashboard-nav';

export interface DashboardSidebarProps {
  /** Unread, non-spam messages, shown beside Forms when there are any. */
  unreadCount?: number;
  /** Shown above the user block (the frame passes its realtime indicator here). */
  status?: ReactNode;
  /** Shown after the menu (the drawer adds the site's pages here). */
  more?: ReactNode;
}

const entryStyle = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2',
  rounded: 'md',
  fontWeight: 'medium',
} as const;

export function DashboardSidebar({ unreadCount, status, more }: DashboardSidebarProps) {
  const [search, setSearch] = useState('');
  const entries = filterNavEntries(DASHBOARD_NAV, search);

  return (
    <Flex direction="column" gap="5" h="full" p="4">
      <Field.Root>
        <Field.Label srOnly>Search the menu</Field.Label>
        <InputGroup startElement={<SearchIcon aria-hidden />}>
          <Input
            type="search"
            size="sm"
            placeholder="Search…"
            autoComplete="off"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </InputGroup>
      </Field.Root>

      <Box as="nav" aria-label="Dashboard">
        {entries.length > 0 ? (
          <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
            {entries.map((entry) => (
              <li key={entry.label}>
                {entry.kind === 'link' ? (
                  <SidebarLink entry={entry} unreadCount={unreadCount} />
                ) : (
                  <ComingSoonItem entry={entry} />
                )}
              </li>
            ))}
          </Stack>
        ) : (
          <Text fontSize="sm" color="fg.muted" px="3">
            No menu entries match “{search.trim()}”.
          </Text>
        )}
      </Box>

      {more}

      <Box flex="1" />

      <PromoCard />
      {status}
      <UserBlock />
    </Flex>
  );
}

function SidebarLink({ entry, unreadCount }: { entry: NavLinkEntry; unreadCount?: number }) {
  const unread = entry.showsUnread && unreadCount ? unreadCount : 0;
  return (
    <Link
      asChild
      {...entryStyle}
      color="fg"
      _hover={{ bg: 'bg.muted', color: 'fg', textDecoration: 'none' }}
      _currentPage={{ bg: 'teal.subtle', color: 'teal.fg' }}
    >
      {/* NavLink marks the active entry with aria-current="page". */}
      <NavLink to={entry.to} end={entry.end}>
        <Icon as={entry.icon} boxSize="4" aria-hidden />
        <Box as="span" flex="1">
          {entry.label}
        </Box>
        {unread > 0 && (
          <>
            <Badge colorPalette="teal" variant="solid" size="sm" rounded="full" aria-hidden>
              {unreadBadgeText(unread)}
            </Badge>{' '}
            <VisuallyHidden>({unread} unread)</VisuallyHidden>
          </>
        )}
      </NavLink>
    </Link>
  );
}

function ComingSoonItem({ entry }: { entry: ComingSoonEntry }) {
  // Plain text, not a control: there is nothing to open yet.
  return (
    <Box {...entryStyle} color="fg.muted" cursor="not-allowed" data-coming-soon="">
      <Icon as={entry.icon} boxSize="4" aria-hidden />
      <Box as="span" flex="1">
        {entry.label}
      </Box>
      <Badge variant="outline" size="sm" colorPalette="gray">
        Coming soon
      </Badge>
    </Box>
  );
}

function PromoCard() {
  return (
    <Card.Root size="sm" variant="subtle" bg="teal.subtle">
      <Card.Body gap="2">
        <HStack gap="2" color="teal.fg">
          <ServerIcon aria-hidden />
          <Text fontWeight="semibold">Host it yourself</Text>
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          tinyback is open source: run it on your own Supabase project and keep every submission.
        </Text>
        <Link asChild fontSize="sm" fontWeight="semibold" color="teal.fg">
          <RouterLink to={SELF_HOSTING_DOCS}>Read the self-hosting guide</RouterLink>
        </Link>
      </Card.Body>
    </Card.Root>
  );
}

function UserBlock() {
  const { user } = useAuth();
  const logOut = useSignOut();
  if (!user) return null;

  const name = displayName(user) ?? (user.email || 'User');
  const avatarUrl =
    typeof user.user_metadata?.avatar_url === 'string' ? user.user_metadata.avatar_url : undefined;

  return (
    <HStack gap="3" pt="4" borderTopWidth="1px" data-testid="sidebar-user">
      <Avatar.Root size="sm" colorPalette="teal">
        <Avatar.Fallback name={name} />
        {avatarUrl && <Avatar.Image src={avatarUrl} alt="" />}
      </Avatar.Root>
      <Box flex="1" minW="0">
        <Text fontWeight="semibold" fontSize="sm" truncate>
          {name}
        </Text>
        {user.email && user.email !== name && (
          <Text fontSize="xs" color="fg.muted" truncate>
            {user.email}
          </Text>
        )}
      </Box>
      {/* An icon keeps the name readable in the narrow sidebar; the label names the button. */}
      <IconButton
        aria-label="Log out"
        title="Log out"
        size="sm"
        variant="ghost"
        onClick={() => void logOut()}
      >
        <LogOutIcon />
      </IconButton>
    </HStack>
  );
}
