// /settings: the signed-in user's display name, password and account deletion.
import { Container, Heading, Stack, Text } from '@chakra-ui/react';
import { useDocumentTitle } from '../../components/use-document-title';
import { DeleteAccountSection } from './components/delete-account-section';
import { DisplayNameForm } from './components/display-name-form';
import { PasswordForm } from './components/password-form';
import { SettingsSection } from './components/settings-section';

export function SettingsPage() {
  useDocumentTitle('Settings');
  return (
    <Container maxW="3xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Stack gap="1" mb="8">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          Settings
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          Manage your profile, your password and your account.
        </Text>
      </Stack>
      <Stack gap="6">
        <SettingsSection
          title="Profile"
          description="Your display name appears in the header, the menu and your dashboard."
        >
          <DisplayNameForm />
        </SettingsSection>
        <SettingsSection
          title="Password"
          description="Choose a new password for logging in with your e-mail."
        >
          <PasswordForm />
        </SettingsSection>
        <SettingsSection
          title="Delete account"
          description="Remove your account and all of its data."
          danger
        >
          <DeleteAccountSection />
        </SettingsSection>
      </Stack>
    </Container>
  );
}
