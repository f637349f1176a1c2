// Asks for the account's e-mail and sends the password-reset link.
import { useState, type FormEvent } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { requestPasswordReset } from '../api/request-password-reset';
import { serverMessage } from '../server-message';
import { FormError } from './auth-card';

export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      await requestPasswordReset(email);
      setSentTo(email.trim());
    } catch (caught) {
      setError(serverMessage(caught, 'The reset e-mail could not be sent.'));
    } finally {
      setSending(false);
    }
  }

  if (sentTo) {
    return (
      <Stack gap="4">
        <Text role="status" textAlign="center">
          If an account exists for <strong>{sentTo}</strong>, a link to set a new password is on its
          way.
        </Text>
        <Button variant="outline" onClick={onBack}>
          Back to sign in
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit}>
      <Stack gap="4">
        <Text color="fg.muted" fontSize="sm">
          Enter your account's e-mail and we'll send you a link to set a new password.
        </Text>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
        <Button type="submit" colorPalette="teal" loading={sending} disabled={!email.trim()}>
          Send reset link
        </Button>
        <Button variant="ghost" onClick={onBack}>
          Back to sign in
        </Button>
        <FormError message={error} />
      </Stack>
    </form>
  );
}
