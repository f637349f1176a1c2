// Shown after a password-reset link signed the user in: sets the new password.
import { useState, type FormEvent } from 'react';
import { Button, Stack } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { updatePassword } from '../api/update-password';
import { serverMessage } from '../server-message';
import { PASSWORD_MIN_LENGTH } from '../../../config/site';
import { useAuth } from '../../../lib/auth';
import { FormError } from './auth-card';

export function NewPasswordForm({ onDone }: { onDone: () => void }) {
  const { user } = useAuth();
  const [password, setPassword] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await updatePassword(password);
      onDone();
    } catch (caught) {
      setError(serverMessage(caught, 'The password could not be changed.'));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit}>
      {/* Tells password managers which account the new password belongs to. */}
      <input
        type="text"
        name="username"
        autoComplete="username"
        value={user?.email ?? ''}
        readOnly
        hidden
      />
      <Stack gap="4">
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          required
        />
        <Button type="submit" colorPalette="teal" size="lg" loading={saving} disabled={!password}>
          Save new password
        </Button>
        <FormError message={error} />
      </Stack>
    </form>
  );
}
