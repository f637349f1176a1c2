// A form card's note once its target address is confirmed while messages it received before are
// still not e-mailed: how many, and the action that sends them (the database sends them only to
// the confirmed address, within the account's notification caps), with a toast saying what
// happened. Disappears once nothing is left.
import { Box, Button, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { MailCheckIcon } from 'lucide-react';
import { notify } from '../../../components/toaster';
import type { Form } from '../api/get-forms';
import { useSendHeldNotifications } from '../api/held-notifications';
import { heldMessagesText, sendHeldFeedback, sendHeldLabel } from '../form-texts';

export interface HeldMessagesProps {
  form: Pick<Form, 'id' | 'target_email'>;
  /** Messages whose notification waits; the note shows only when there are some. */
  count: number;
}

export function HeldMessages({ form, count }: HeldMessagesProps) {
  const send = useSendHeldNotifications();
  if (count <= 0) return null;

  function onSend() {
    send.mutate(
      { formId: form.id },
      {
        onSuccess: (outcome) => {
          const { type, title, description } = sendHeldFeedback(outcome);
          notify(type, title, description);
        },
        onError: () =>
          notify('error', 'The messages could not be sent', 'Check your connection and try again.'),
      },
    );
  }

  return (
    <Box
      borderWidth="1px"
      borderColor="teal.muted"
      bg="teal.subtle"
      rounded="md"
      px="3"
      py="2"
      fontSize="sm"
      data-testid="held-messages"
    >
      <Stack gap="2">
        <HStack align="start" gap="2">
          <Icon
            as={MailCheckIcon}
            color="teal.fg"
            boxSize="4"
            mt="0.5"
            flexShrink={0}
            aria-hidden
          />
          <Text fontWeight="medium" wordBreak="break-word" minW="0">
            {heldMessagesText(count, form.target_email)}
          </Text>
        </HStack>
        <Button
          size="xs"
          colorPalette="teal"
          alignSelf="flex-start"
          onClick={onSend}
          loading={send.isPending}
          loadingText="Sending…"
        >
          {sendHeldLabel(count)}
        </Button>
      </Stack>
    </Box>
  );
}
