// After a sign-up that waits for its e-mail to be confirmed: where the link went, what it does,
// and a way to have it sent again. Focus moves here, as the form it replaces is gone.
import { useEffect, useRef } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import { ResendLink } from './resend-link';

export function CheckInbox({ email }: { email: string }) {
  const message = useRef<HTMLParagraphElement>(null);
  useEffect(() => message.current?.focus(), []);

  return (
    <Stack gap="5" textAlign="center">
      <Text ref={message} tabIndex={-1} outline="none">
        We sent a confirmation link to <strong>{email}</strong>. Open it to finish creating your
        account: it signs you in on your dashboard.
      </Text>
      <Text color="fg.muted" fontSize="sm">
        No e-mail after a few minutes? Check your spam folder, or send the link again.
      </Text>
      <ResendLink email={email} />
    </Stack>
  );
}
