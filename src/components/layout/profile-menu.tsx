// The signed-in user's profile menu in the header: name and e-mail, Dashboard, Settings and Sign
// out. Its own module, loaded only once someone is signed in (header.tsx): the menu's positioning
// and focus machinery (the menu's and avatar's styles, and signing out) are not part of a
// visitor's first page load.
import { Link as RouterLink } from 'react-router-dom';
import { Avatar, Box, IconButton, Menu, Portal, Text } from '@chakra-ui/react';
import type { User } from '@supabase/supabase-js';
import { LayoutDashboardIcon, LogOutIcon, SettingsIcon } from 'lucide-react';
import { paths } from '../../config/paths';
import { ErrorBoundary } from '../error-boundary';
import { useLaterRecipes } from '../theme/use-later-recipes';
import { useSignOut } from './use-sign-out';

export interface ProfileMenuProps {
  user: User;
  name: string;
  profileOpen: boolean;
  changeProfile: (open: boolean) => void;
}

/** The menu; should its styles fail to load, the header goes on without it (never a throw). */
export function ProfileMenu(props: ProfileMenuProps) {
  return (
    <ErrorBoundary fallback={() => null}>
      <ProfileMenuContent {...props} />
    </ErrorBoundary>
  );
}

function ProfileMenuContent({ user, name, profileOpen, changeProfile }: ProfileMenuProps) {
  useLaterRecipes();
  // Here rather than in the header: signing out is only needed once someone is signed in, so its
  // code loads with this menu, not with every first page.
  const signOut = useSignOut();
  async function handleSignOut() {
    changeProfile(false);
    await signOut();
  }
  return (
    <Menu.Root
      open={profileOpen}
      onOpenChange={(details) => changeProfile(details.open)}
      // Keyboard selection arrives here; pointer clicks reach the button itself.
      onSelect={(details) => {
        if (details.value === 'sign-out') void handleSignOut();
      }}
      positioning={{ placement: 'bottom-end' }}
    >
      <Menu.Trigger asChild>
        <IconButton aria-label="Open profile menu" variant="ghost" rounded="full" size="sm">
          <Avatar.Root size="sm" colorPalette="teal">
            <Avatar.Fallback name={name} />
            {typeof user.user_metadata?.avatar_url === 'string' && (
              <Avatar.Image src={user.user_metadata.avatar_url} alt="" />
            )}
          </Avatar.Root>
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="240px" aria-label="Profile">
            <Box px="2" py="2">
              <Text fontWeight="semibold">{name}</Text>
              <Text fontSize="sm" color="fg.muted" truncate>
                {user.email}
              </Text>
            </Box>
            <Menu.Separator />
            <Menu.Item value="dashboard" asChild>
              <RouterLink to={paths.dashboard}>
                <LayoutDashboardIcon aria-hidden /> Dashboard
              </RouterLink>
            </Menu.Item>
            <Menu.Item value="settings" asChild>
              <RouterLink to={paths.settings}>
                <SettingsIcon aria-hidden /> Settings
              </RouterLink>
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="sign-out" asChild>
              {/* A real button, so activation never depends on the menu's pointer tracking. */}
              <button type="button" onClick={() => void handleSignOut()}>
                <LogOutIcon aria-hidden /> Sign out
              </button>
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
