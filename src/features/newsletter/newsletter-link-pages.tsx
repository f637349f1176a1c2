// The pages the links in the newsletter's confirmation e-mail lead to: the `newsletter` function
// acts on the link, then redirects here (without the link's token) to say how it went.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Container, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuCircleCheck, LuLink2Off, LuMailMinus } from 'react-icons/lu';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { NEWSLETTER } from '../../../supabase/functions/_shared/limits';

const CONFIRM_LINK_DAYS = Math.round(NEWSLETTER.confirmLinkTtlHours / 24);

function LinkOutcome({
  title,
  icon,
  palette,
  children,
}: {
  title: string;
  icon: IconType;
  palette: 'green' | 'gray' | 'orange';
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <Container maxW="xl" py={{ base: '16', md: '28' }}>
      <Stack align="center" textAlign="center" gap="5">
        <Flex
          w="16"
          h="16"
          rounded="full"
          bg={`${palette}.50`}
          color={`${palette}.700`}
          align="center"
          justify="center"
        >
          <Icon as={icon} boxSize="8" aria-hidden />
        </Flex>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          {title}
        </Heading>
        {children}
        <Button asChild colorPalette="teal">
          <RouterLink to={paths.home}>Back to the home page</RouterLink>
        </Button>
      </Stack>
    </Container>
  );
}

export function NewsletterConfirmedPage() {
  return (
    <LinkOutcome title="You're subscribed" icon={LuCircleCheck} palette="green">
      <Text color="fg.muted">
        Thanks for confirming. Product updates will arrive in your inbox, and every e-mail has a
        link to unsubscribe.
      </Text>
    </LinkOutcome>
  );
}

export function NewsletterUnsubscribedPage() {
  return (
    <LinkOutcome title="You're unsubscribed" icon={LuMailMinus} palette="gray">
      <Text color="fg.muted">
        You will get no more newsletter e-mail at this address. Changed your mind? Subscribe again
        at the bottom of any page.
      </Text>
    </LinkOutcome>
  );
}

export function NewsletterInvalidLinkPage() {
  return (
    <LinkOutcome title="This link is not valid" icon={LuLink2Off} palette="orange">
      <Text color="fg.muted">
        It has expired or was already used: a confirmation link works once, for {CONFIRM_LINK_DAYS}{' '}
        days. To subscribe, enter your e-mail at the bottom of this page and use the link in the new
        e-mail. An address whose unsubscribe link no longer works is not on the list.
      </Text>
    </LinkOutcome>
  );
}
