// The pages the links of owners' lists open. A list's confirmation e-mail links to
// /newsletter/confirm?list=1&token=…, a campaign's unsubscribe link to
// /newsletter/unsubscribe?u=…&c=…&sig=… — the footer newsletter's own paths, told apart by their
// parameters (NewsletterConfirmRoute, NewsletterUnsubscribeRoute). The outcome replaces the link's
// secret in the address bar, so a reload shows the outcome, not the link's work again.
//
// Confirming acts only when the reader presses the button: subscribing someone is what a mail
// scanner that opens every link of an e-mail, even in a browser that runs the page, must never do.
// Unsubscribing takes one click, the link itself: the page posts the signed link to the function
// as soon as it runs. What changes state is that POST, sent by the page's script; a plain GET of
// either URL changes nothing (the function answers a GET of its link with a redirect here), so
// the scanners that prefetch links without running them unsubscribe nobody. One that does run
// the page can only stop mail, never start it, and signing up again undoes it. (A mail program's
// own Unsubscribe button needs no page: it posts to the function, RFC 8058.)
// /newsletter/check-inbox is where a list's HTML signup form leads after its post.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import type { LucideIcon } from 'lucide-react';
import {
  ArrowLeftIcon,
  CircleCheckIcon,
  Link2OffIcon,
  MailCheckIcon,
  MailMinusIcon,
  MailQuestionMarkIcon,
} from 'lucide-react';
import { PageMeta } from '../../components/page-meta';
import { paths } from '../../config/paths';
import { LISTS } from '../../../supabase/functions/_shared/limits';
import { useConfirmListSubscription } from './api/confirm-list-subscription';
import { useUnsubscribeFromList } from './api/unsubscribe-from-list';
import { NewsletterConfirmPage, NewsletterUnsubscribePage } from './newsletter-link-pages';

/** Marks a link page as a list's (the footer newsletter's pages share the paths). */
const LIST_MARK = '?list=1';

/** What the pressed button came to, kept in the history entry that replaced the link. */
interface ListLinkState {
  outcome?: 'confirmed' | 'unsubscribed' | 'invalid';
  listName?: string;
}

function Panel({
  title,
  heading = title,
  icon,
  palette,
  focus = false,
  children,
}: {
  /** The document's title. */
  title: string;
  /** The page's heading, when it says more than the title (the list's name). */
  heading?: string;
  icon: LucideIcon;
  palette: 'green' | 'gray' | 'orange' | 'teal';
  /** Take the reader (and a screen reader) to the heading: the pressed button is gone. */
  focus?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <Box px="4" py={{ base: '12', md: '20' }} w="full">
      {/* One-time e-mail links and their outcomes are nobody's search result. */}
      <PageMeta title={title} noindex />
      <Stack
        align="center"
        textAlign="center"
        gap="5"
        maxW="lg"
        mx="auto"
        bg="bg"
        borderWidth="1px"
        rounded="2xl"
        shadow="sm"
        px={{ base: '6', md: '10' }}
        py={{ base: '10', md: '12' }}
      >
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
          ref={ref}
          tabIndex={-1}
          outline="none"
          overflowWrap="anywhere"
        >
          {heading}
        </Heading>
        {children}
      </Stack>
    </Box>
  );
}

function Ask({
  title,
  intro,
  button,
  pendingText,
  pending,
  note,
  icon,
  failed,
  onPress,
}: {
  title: string;
  intro: string;
  button: string;
  /** The button's label while its request is under way. */
  pendingText: string;
  pending: boolean;
  note: string;
  icon: LucideIcon;
  failed: boolean;
  onPress: () => void;
}) {
  return (
    <Panel title={title} icon={icon} palette="teal">
      <Text color="fg.muted">{intro}</Text>
      {failed && (
        <Alert.Root status="error" textAlign="start" role="alert">
          <Alert.Indicator />
          <Alert.Title>That did not work. Check your connection and try again.</Alert.Title>
        </Alert.Root>
      )}
      <Button
        colorPalette="teal"
        size="lg"
        onClick={onPress}
        loading={pending}
        loadingText={pendingText}
      >
        {button}
      </Button>
      <Text color="fg.muted" textStyle="sm">
        {note}
      </Text>
    </Panel>
  );
}

/** The outcome this history entry holds, if its button was pressed. */
function useShownOutcome(): ListLinkState | null {
  const state = useLocation().state as ListLinkState | null;
  return state?.outcome ? state : null;
}

/** Replaces the link (and its secret) with the list page's bare address and the outcome. */
function useShowOutcome(pathname: string) {
  const navigate = useNavigate();
  return useCallback(
    (state: ListLinkState) => navigate({ pathname, search: LIST_MARK }, { replace: true, state }),
    [navigate, pathname],
  );
}

function InvalidLink({ children }: { children: ReactNode }) {
  return (
    <Panel title="This link is not valid" icon={Link2OffIcon} palette="orange" focus>
      <Text color="fg.muted">{children}</Text>
    </Panel>
  );
}

export function ListConfirmPage() {
  const [params] = useSearchParams();
  const shown = useShownOutcome();
  const show = useShowOutcome(paths.newsletterConfirm);
  const confirm = useConfirmListSubscription();

  if (shown?.outcome === 'confirmed')
    return (
      <Panel
        title="You're subscribed"
        heading={shown.listName ? `You're subscribed to ${shown.listName}` : "You're subscribed"}
        icon={CircleCheckIcon}
        palette="green"
        focus
      >
        <Text color="fg.muted">
          Thanks for confirming. Every e-mail from this list has a link to unsubscribe. You can
          close this page.
        </Text>
      </Panel>
    );
  if (shown?.outcome === 'invalid')
    return (
      <InvalidLink>
        It has expired or was already used: a confirmation link works once, for{' '}
        {LISTS.confirmLinkTtlDays} days. To subscribe, sign up again on the list&apos;s site and use
        the link in the new e-mail.
      </InvalidLink>
    );
  return (
    <Ask
      title="Confirm your subscription"
      intro="Press the button to receive this list's e-mail at this address. Every e-mail has a link to unsubscribe."
      button="Confirm subscription"
      pendingText="Confirming…"
      note="Not expecting this? Close this page: you will not be subscribed unless you confirm."
      icon={MailQuestionMarkIcon}
      pending={confirm.isPending}
      failed={confirm.isError}
      onPress={() =>
        confirm.mutate(params.get('token') ?? '', {
          onSuccess: (result) =>
            show(
              result.status === 'confirmed'
                ? { outcome: 'confirmed', listName: result.listName }
                : { outcome: 'invalid' },
            ),
        })
      }
    />
  );
}

export function ListUnsubscribePage() {
  const [params] = useSearchParams();
  const shown = useShownOutcome();
  const show = useShowOutcome(paths.newsletterUnsubscribe);
  const { mutateAsync, isError, isPending } = useUnsubscribeFromList();
  const started = useRef(false);
  // After a failure the Try again button stays (busy while it retries), so the focus stays on it.
  const [failed, setFailed] = useState(false);
  const subscriber = params.get('u') ?? '';
  const campaign = params.get('c') ?? '';
  const signature = params.get('sig') ?? '';

  const run = useCallback(() => {
    mutateAsync({ subscriber, campaign, signature }).then(
      (result) =>
        show(
          result.status === 'unsubscribed'
            ? { outcome: 'unsubscribed', listName: result.listName }
            : { outcome: 'invalid' },
        ),
      () => setFailed(true),
    );
  }, [mutateAsync, show, subscriber, campaign, signature]);

  // The link is the click: post it once when the page opens. The ref keeps React's strict mode,
  // which runs an effect twice, from posting it again; an outcome already shown posts nothing.
  useEffect(() => {
    if (started.current || shown) return;
    started.current = true;
    run();
  }, [run, shown]);

  if (shown?.outcome === 'invalid')
    return (
      <InvalidLink>
        Open the unsubscribe link of the e-mail again, whole: it may have been cut off. An address
        that is no longer on the list gets no e-mail from it.
      </InvalidLink>
    );
  const done = shown?.outcome === 'unsubscribed';
  const listName = shown?.listName;
  return (
    <Panel
      title={done ? "You're unsubscribed" : 'Unsubscribe from this list'}
      icon={MailMinusIcon}
      palette={done ? 'gray' : 'teal'}
      focus={done}
    >
      {/* One live region from the request to its outcome, so a screen reader hears the change. */}
      <Text color="fg.muted" role="status" aria-live="polite">
        {done
          ? listName
            ? `You are unsubscribed from ${listName}.`
            : 'You are unsubscribed.'
          : isError
            ? ''
            : 'Unsubscribing…'}
      </Text>
      {done && (
        <Text color="fg.muted">
          This address gets no more e-mail from this list. You can close this page.
        </Text>
      )}
      {isError && !done && (
        <Alert.Root status="error" textAlign="start" role="alert">
          <Alert.Indicator />
          <Alert.Title>
            You are not unsubscribed yet: that did not work. Check your connection and try again.
          </Alert.Title>
        </Alert.Root>
      )}
      {failed && !done && (
        <Button
          colorPalette="teal"
          size="lg"
          onClick={run}
          loading={isPending}
          loadingText="Unsubscribing…"
        >
          Try again
        </Button>
      )}
    </Panel>
  );
}

/** The site the visitor came from (the page with the form), if the browser told us. */
function referrerOrigin(referrer: string): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

function BackToSite() {
  const origin = referrerOrigin(document.referrer);
  // Our own origin is no way back: it would lead into tinyback instead of the visitor's site.
  if (origin !== null && origin !== window.location.origin)
    return (
      <Button asChild colorPalette="teal" size="lg">
        <a href={origin}>
          <ArrowLeftIcon aria-hidden /> Back to {new URL(origin).host}
        </a>
      </Button>
    );
  if (window.history.length > 1)
    return (
      <Button colorPalette="teal" size="lg" onClick={() => window.history.back()}>
        <ArrowLeftIcon aria-hidden /> Go back
      </Button>
    );
  return <Text color="fg.muted">You can close this page now.</Text>;
}

/**
 * Where a list's HTML signup form leads after its post. The answer is the same for every address
 * (new, waiting or already subscribed), so the page says what happens if it is new.
 */
export function ListCheckInboxPage() {
  return (
    <Panel title="Check your inbox" icon={MailCheckIcon} palette="green">
      <Text color="fg.muted">
        If this address is not on the list yet, it has been sent an e-mail with a link to confirm
        the subscription. It can take a few minutes to arrive; look in the spam folder too. The link
        works for {LISTS.confirmLinkTtlDays} days.
      </Text>
      <BackToSite />
    </Panel>
  );
}

/** Whether a link page's address is a list's (see LIST_MARK and the campaign link's `u`). */
function isListLink(params: URLSearchParams): boolean {
  return params.get('list') === '1' || params.has('u');
}

/** /newsletter/confirm: a list's confirmation link, or the footer newsletter's. */
export function NewsletterConfirmRoute() {
  const [params] = useSearchParams();
  return isListLink(params) ? <ListConfirmPage /> : <NewsletterConfirmPage />;
}

/** /newsletter/unsubscribe: a campaign's unsubscribe link, or the footer newsletter's. */
export function NewsletterUnsubscribeRoute() {
  const [params] = useSearchParams();
  return isListLink(params) ? <ListUnsubscribePage /> : <NewsletterUnsubscribePage />;
}
