// Mails the sign-up confirmation link again: a button, then the outcome announced to screen
// readers (a polite status when sent, the red alert line when not).
import { useState } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import { resendConfirmation } from '../api/resend-confirmation';
import { serverMessage } from '../server-message';
import { FormError } from './auth-card';

export function ResendLink({ email }: { email: string }) {
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function resend() {
    setSending(true);
    setSent(false);
    setError(null);
    try {
      await resendConfirmation(email);
      setSent(true);
    } catch (caught) {
      setError(serverMessage(caught, 'The link could not be sent again.'));
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack gap="3" align="center">
      <Button variant="outline" onClick={resend} loading={sending} loadingText="Sending…">
        Resend confirmation link
      </Button>
      {/* Always in the page, so the message is announced when it appears. */}
      <Text role="status" fontSize="sm" color="teal.700" textAlign="center">
        {sent ? `A new link is on its way to ${email}.` : ''}
      </Text>
      <FormError message={error} />
    </Stack>
  );
}
