// /settings: the signed-in user's plan and usage (passed in by the app layer from the plans
// feature), display name, password, API keys and account deletion.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Container, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../components/use-document-title';
import { ApiKeysSection } from './components/api-keys-section';
import { DeleteAccountSection } from './components/delete-account-section';
import { DisplayNameForm } from './components/display-name-form';
import { PasswordForm } from './components/password-form';
import { SettingsSection } from './components/settings-section';

export interface SettingsPageProps {
  /** The plan and its usage (the plans feature's section); left out when absent. */
  plan?: ReactNode;
}

export function SettingsPage({ plan }: SettingsPageProps = {}) {
  useDocumentTitle('Settings');
  return (
    <Container maxW="3xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Stack gap="1" mb="8">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          Settings
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          Your plan and usage, your profile, your password, your API keys and your account.
        </Text>
      </Stack>
      <Stack gap="6">
        {plan && (
          <SettingsSection
            id="plan"
            title="Plan and usage"
            description="What your plan includes, what your forms have used this month, and how to change plans."
          >
            {plan}
          </SettingsSection>
        )}
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
          title="API keys"
          description={
            <>
              Bearer keys for reading your forms and entries from your own servers.{' '}
              <Link asChild color="teal.700">
                <RouterLink to={`${paths.docs}#api-keys`}>How to use them</RouterLink>
              </Link>
            </>
          }
        >
          <ApiKeysSection />
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
