// Account creation form: full name, e-mail, password. Only the browser checks the fields (spec §5);
// the server's answer is shown with the messages of the error catalogue. A sign-up that waits for
// its e-mail to be confirmed reports the address it was sent to instead of signing in.
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Stack } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { signUp, type SignUpInput } from '../api/sign-up';
import { registerErrorMessage } from '../register-errors';
import { clearSignupEmail, peekSignupEmail } from '../../../lib/signup-prefill';
import { PASSWORD_MIN_LENGTH } from '../../../config/site';
import { FormError } from './auth-card';

export function RegisterForm({
  onSignedUp,
  onConfirmationSent,
  plan = null,
}: {
  /** The plan and cycle picked on the pricing page, kept with the new account. */
  plan?: SignUpInput['plan'];
  onSignedUp: () => void;
  /** The account waits for the link mailed to `email`. */
  onConfirmationSent: (email: string) => void;
}) {
  const [name, setName] = useState('');
  // The hero's e-mail prefills the form once; it is dropped from storage as soon as it is used.
  const [email, setEmail] = useState(peekSignupEmail);
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => clearSignupEmail(), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      const result = await signUp({ name, email, password, plan });
      if (result.signedIn) onSignedUp();
      else onConfirmationSent(result.email);
    } catch (caught) {
      setError(registerErrorMessage(caught));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={submit}>
      <Stack gap="4">
        <TextField
          label="Full name"
          name="name"
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          required
        />
        <Button type="submit" colorPalette="teal" size="lg" loading={submitting}>
          Create account
        </Button>
        <FormError message={error} />
      </Stack>
    </form>
  );
}
