// A form card's note while its target address waits for confirmation: messages are stored but not
// e-mailed until the link mailed there is opened, with "Resend confirmation" and a toast saying
// what happened. Disappears by itself once the address is confirmed (the forms list is live).
import { Box, Button, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { MailExclamationPointIcon } from 'lucide-react';
import { CONFIRMATIONS } from '../../../../supabase/functions/_shared/limits';
import { notify } from '../../../components/toaster';
import { useResendTargetConfirmation } from '../api/resend-target-confirmation';
import { formsKeys, type Form } from '../api/get-forms';
import { pendingConfirmationText, resendFeedback } from '../form-texts';

export interface TargetConfirmationProps {
  form: Pick<Form, 'id' | 'target_email'>;
}

export function TargetConfirmation({ form }: TargetConfirmationProps) {
  const client = useQueryClient();
  const resend = useResendTargetConfirmation();

  function onResend() {
    resend.mutate(
      { formId: form.id },
      {
        onSuccess: (outcome) => {
          const { type, title, description } = resendFeedback(
            outcome,
            form.target_email,
            CONFIRMATIONS.linkValidHours,
          );
          notify(type, title, description);
          // The list is live, but a tab that missed the change catches up here.
          if (outcome.status === 'verified' || outcome.status === 'not_found') {
            void client.invalidateQueries({ queryKey: formsKeys.list() });
          }
        },
        onError: () =>
          notify(
            'error',
            'The confirmation could not be resent',
            'Check your connection and try again.',
          ),
      },
    );
  }

  return (
    <Box
      borderWidth="1px"
      borderColor="orange.muted"
      bg="orange.subtle"
      rounded="md"
      px="3"
      py="2"
      fontSize="sm"
    >
      <Stack gap="2">
        <HStack align="start" gap="2">
          <Icon
            as={MailExclamationPointIcon}
            color="orange.fg"
            boxSize="4"
            mt="0.5"
            flexShrink={0}
            aria-hidden
          />
          <Stack gap="0.5" minW="0">
            <Text fontWeight="medium" wordBreak="break-all">
              {pendingConfirmationText(form.target_email)}
            </Text>
            <Text color="fg.muted">
              Messages are stored here but not e-mailed until the link we sent there is opened.
            </Text>
          </Stack>
        </HStack>
        <Button
          size="xs"
          variant="outline"
          alignSelf="flex-start"
          onClick={onResend}
          loading={resend.isPending}
          loadingText="Resending…"
        >
          Resend confirmation
        </Button>
      </Stack>
    </Box>
  );
}
