// The page a target-address confirmation e-mail links to (`/confirm-address?token=…`): it names the
// address and the form the link is about (a read that changes nothing), says what confirming means
// and spends the token only when the reader presses "Confirm address", so a mail scanner that
// fetches the link confirms nothing. Then it names the outcome: confirmed — thanking the recipient,
// who is the one reading — already used, expired or not a valid link. Public: the recipient need
// not have an account.
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Alert, Button, Container, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { CircleCheckIcon, CircleExclamationPointIcon, MailQuestionMarkIcon } from 'lucide-react';
import { CONFIRMATIONS } from '../../../../supabase/functions/_shared/limits';
import { useDocumentTitle } from '../../../components/use-document-title';
import { paths } from '../../../config/paths';
import {
  useConfirmationDetails,
  useConfirmTargetEmail,
  type ConfirmOutcome,
} from '../api/confirm-target-email';

type Shown = ConfirmOutcome['status'] | 'ask';

const RESEND_HINT =
  'The form’s owner can send a new link with “Resend confirmation” on the form’s card in the dashboard.';

const TEXTS: Record<Exclude<Shown, 'ask' | 'confirmed'>, { title: string; body: string }> = {
  used: {
    title: 'This link was already used',
    body: `The address was confirmed with it. If notifications still do not arrive, check the spam folder. ${RESEND_HINT}`,
  },
  expired: {
    title: 'This link has expired',
    body: `Confirmation links work for ${CONFIRMATIONS.linkValidHours} hours. Nothing was changed. ${RESEND_HINT}`,
  },
  invalid: {
    title: 'This link is not valid',
    body: `It may be cut short: open it again from the e-mail, or copy the whole address. Nothing was changed. ${RESEND_HINT}`,
  },
};

export function ConfirmAddressPage() {
  useDocumentTitle('Confirm address');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const details = useConfirmationDetails(token);
  const confirm = useConfirmTargetEmail();
  const outcome = confirm.data;
  // A link already used, expired or not valid says so at once, without a button to press.
  const known = details.data && details.data.status !== 'pending' ? details.data : null;
  const pending = details.data?.status === 'pending' ? details.data : null;
  const shown: Shown = outcome ? outcome.status : (known?.status ?? 'ask');
  const ended = outcome ?? known;
  const heading = useRef<HTMLHeadingElement>(null);

  // The outcome replaces the question: take the reader (and a screen reader) to its heading.
  useEffect(() => {
    if (outcome) heading.current?.focus();
  }, [outcome]);

  const good = shown === 'ask' || shown === 'confirmed';
  return (
    <Container maxW="xl" py={{ base: '16', md: '28' }}>
      <Stack align="center" textAlign="center" gap="5">
        <Flex
          w="16"
          h="16"
          rounded="full"
          bg={good ? 'teal.subtle' : 'orange.subtle'}
          color={good ? 'teal.fg' : 'orange.fg'}
          align="center"
          justify="center"
        >
          <Icon
            as={
              shown === 'confirmed'
                ? CircleCheckIcon
                : shown === 'ask'
                  ? MailQuestionMarkIcon
                  : CircleExclamationPointIcon
            }
            boxSize="8"
            aria-hidden
          />
        </Flex>
        <Heading
          as="h1"
          size={{ base: '2xl', md: '3xl' }}
          ref={heading}
          tabIndex={-1}
          outline="none"
        >
          {shown === 'ask'
            ? 'Confirm this address'
            : shown === 'confirmed'
              ? 'Thank you for confirming'
              : TEXTS[shown].title}
        </Heading>

        {shown === 'ask' && (
          <>
            {pending ? (
              <Text color="fg.muted" wordBreak="break-word" data-testid="confirmation-subject">
                The form <strong>“{pending.form ?? 'a form'}”</strong> of a tinyback user wants the
                messages it receives e-mailed to <strong>{pending.email}</strong>. Confirm if you
                want to receive them at this address; the link works once.
              </Text>
            ) : (
              <Text color="fg.muted">
                A tinyback user wants the messages their form receives e-mailed to this address.
                Confirm if you want to receive them; the link works once.
              </Text>
            )}
            {confirm.isError && (
              <Alert.Root status="error" textAlign="start">
                <Alert.Indicator />
                <Alert.Title>
                  The address could not be confirmed. Check your connection and try again.
                </Alert.Title>
              </Alert.Root>
            )}
            <Button
              colorPalette="teal"
              onClick={() => confirm.mutate({ token })}
              loading={confirm.isPending}
              loadingText="Confirming…"
            >
              Confirm address
            </Button>
            <Text color="fg.muted" textStyle="sm">
              Not expecting this? Close this page: nothing is sent to you unless you confirm.
            </Text>
          </>
        )}

        {outcome?.status === 'confirmed' && (
          <>
            <Text color="fg.muted" wordBreak="break-word">
              From now on, <strong>{outcome.email}</strong> receives the messages of the form{' '}
              <strong>“{outcome.form ?? 'a form'}”</strong>.
            </Text>
            <Text color="fg.muted" textStyle="sm">
              You can close this page. To stop them later, ask the form’s owner to change the
              address.
            </Text>
          </>
        )}

        {ended && ended.status !== 'confirmed' && (
          <>
            <Text color="fg.muted">{TEXTS[ended.status].body}</Text>
            <Button asChild variant="outline">
              <RouterLink to={paths.home}>Back to the home page</RouterLink>
            </Button>
          </>
        )}
      </Stack>
    </Container>
  );
}
