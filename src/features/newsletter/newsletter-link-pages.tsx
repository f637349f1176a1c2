// The pages the links in the newsletter's confirmation e-mail open. /newsletter/confirm and
// /newsletter/unsubscribe say what the link does and act only when the reader presses their
// button (a mail scanner that fetches every link changes nothing); then they replace themselves,
// token and all, with the outcome: /newsletter/confirmed, /unsubscribed or /invalid-link.
import { useEffect, useRef, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Container, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import type { LucideIcon } from 'lucide-react';
import { CircleCheckIcon, Link2OffIcon, MailMinusIcon, MailQuestionMarkIcon } from 'lucide-react';
import { PageMeta } from '../../components/page-meta';
import { paths } from '../../config/paths';
import { NEWSLETTER } from '../../../supabase/functions/_shared/limits';
import { useNewsletterLink, type LinkAction } from './api/spend-newsletter-link';

const CONFIRM_LINK_DAYS = Math.round(NEWSLETTER.confirmLinkTtlHours / 24);

/** Navigation state of an outcome reached by pressing a page's button. */
interface FromButton {
  fromButton?: boolean;
}

function LinkOutcome({
  title,
  icon,
  palette,
  children,
  home = true,
}: {
  title: string;
  icon: LucideIcon;
  palette: 'green' | 'gray' | 'orange' | 'teal';
  children: ReactNode;
  home?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const fromButton = (useLocation().state as FromButton | null)?.fromButton === true;
  // The pressed button is gone: take the reader (and a screen reader) to the outcome's heading.
  useEffect(() => {
    if (fromButton) heading.current?.focus();
  }, [fromButton]);
  return (
    <Container maxW="xl" py={{ base: '16', md: '28' }}>
      {/* One-time e-mail links and their outcomes are nobody's search result. */}
      <PageMeta title={title} noindex />
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
        <Heading
          as="h1"
          size={{ base: '2xl', md: '3xl' }}
          ref={heading}
          tabIndex={-1}
          outline="none"
        >
          {title}
        </Heading>
        {children}
        {home && (
          <Button asChild colorPalette="teal">
            <RouterLink to={paths.home}>Back to the home page</RouterLink>
          </Button>
        )}
      </Stack>
    </Container>
  );
}

const ASK = {
  confirm: {
    title: 'Confirm your subscription',
    intro:
      'Press the button to receive product updates at this address. Every newsletter e-mail has a link to unsubscribe.',
    button: 'Confirm subscription',
    pending: 'Confirming…',
    note: 'Not expecting this? Close this page: you will not be subscribed unless you confirm.',
    done: paths.newsletterConfirmed,
    icon: MailQuestionMarkIcon,
  },
  unsubscribe: {
    title: 'Unsubscribe from the newsletter',
    intro: 'Press the button and this address gets no more newsletter e-mail.',
    button: 'Unsubscribe',
    pending: 'Unsubscribing…',
    note: 'Changed your mind? Close this page and nothing changes.',
    done: paths.newsletterUnsubscribed,
    icon: MailMinusIcon,
  },
} as const;

function AskPage({ action }: { action: LinkAction }) {
  const texts = ASK[action];
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const spend = useNewsletterLink(action);
  const press = () =>
    spend.mutate(
      { token },
      {
        // Replace: the token leaves the address bar and the history.
        onSuccess: (outcome) =>
          navigate(outcome === 'done' ? texts.done : paths.newsletterInvalidLink, {
            replace: true,
            state: { fromButton: true } satisfies FromButton,
          }),
      },
    );
  return (
    <LinkOutcome title={texts.title} icon={texts.icon} palette="teal" home={false}>
      <Text color="fg.muted">{texts.intro}</Text>
      {spend.isError && (
        <Alert.Root status="error" textAlign="start" role="alert">
          <Alert.Indicator />
          <Alert.Title>That did not work. Check your connection and try again.</Alert.Title>
        </Alert.Root>
      )}
      <Button
        colorPalette="teal"
        onClick={press}
        loading={spend.isPending}
        loadingText={texts.pending}
      >
        {texts.button}
      </Button>
      <Text color="fg.muted" textStyle="sm">
        {texts.note}
      </Text>
    </LinkOutcome>
  );
}

export function NewsletterConfirmPage() {
  return <AskPage action="confirm" />;
}

export function NewsletterUnsubscribePage() {
  return <AskPage action="unsubscribe" />;
}

export function NewsletterConfirmedPage() {
  return (
    <LinkOutcome title="You're subscribed" icon={CircleCheckIcon} palette="green">
      <Text color="fg.muted">
        Thanks for confirming. Product updates will arrive in your inbox, and every e-mail has a
        link to unsubscribe.
      </Text>
    </LinkOutcome>
  );
}

export function NewsletterUnsubscribedPage() {
  return (
    <LinkOutcome title="You're unsubscribed" icon={MailMinusIcon} palette="gray">
      <Text color="fg.muted">
        You will get no more newsletter e-mail at this address. Changed your mind? Subscribe again
        at the bottom of any page.
      </Text>
    </LinkOutcome>
  );
}

export function NewsletterInvalidLinkPage() {
  return (
    <LinkOutcome title="This link is not valid" icon={Link2OffIcon} palette="orange">
      <Text color="fg.muted">
        It has expired or was already used: a confirmation link works once, for {CONFIRM_LINK_DAYS}{' '}
        days. To subscribe, enter your e-mail at the bottom of this page and use the link in the new
        e-mail. An address whose unsubscribe link no longer works is not on the list.
      </Text>
    </LinkOutcome>
  );
}
