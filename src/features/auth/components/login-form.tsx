// E-mail and password sign-in form (Formik + Yup); the submit stays disabled while invalid. An
// account whose e-mail is not confirmed yet is told so, with a way to have the link sent again.
import { useState } from 'react';
import { useFormik } from 'formik';
import { Button, Checkbox, Flex, Stack, Text } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { signIn, signInSchema } from '../api/sign-in';
import { serverMessage } from '../server-message';
import { FormError } from './auth-card';
import { ResendLink } from './resend-link';

/** Whether sign-in failed because the account's e-mail is not confirmed yet (GoTrue's code). */
function isUnconfirmed(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'email_not_confirmed';
}

/** Sign-in refused until the address is confirmed: what to do, and the link sent again. */
function ConfirmEmailFirst({ email }: { email: string }) {
  return (
    <Stack gap="3">
      <Text role="alert" fontSize="sm" textAlign="center">
        Confirm your e-mail first: open the link we sent to <strong>{email}</strong> when you signed
        up. It signs you in.
      </Text>
      <ResendLink email={email} />
    </Stack>
  );
}

export function LoginForm({
  onSignedIn,
  onForgotPassword,
}: {
  onSignedIn: () => void;
  onForgotPassword: () => void;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const formik = useFormik({
    initialValues: { email: '', password: '', remember: true },
    validationSchema: signInSchema,
    onSubmit: async (values) => {
      setServerError(null);
      setUnconfirmed(null);
      try {
        await signIn(values);
        onSignedIn();
      } catch (error) {
        if (isUnconfirmed(error)) setUnconfirmed(values.email.trim());
        else setServerError(serverMessage(error, 'Sign in failed.'));
      }
    },
  });
  const valid = signInSchema.isValidSync(formik.values);
  const fieldError = (name: 'email' | 'password') =>
    formik.touched[name] ? formik.errors[name] : undefined;

  return (
    <form onSubmit={formik.handleSubmit} noValidate>
      <Stack gap="4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          {...formik.getFieldProps('email')}
          error={fieldError('email')}
          required
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          {...formik.getFieldProps('password')}
          error={fieldError('password')}
          required
        />
        <Flex justify="space-between" align="center" gap="3" wrap="wrap">
          {/* Checked: the session survives closing the browser. Unchecked: it ends with the tab. */}
          <Checkbox.Root
            checked={formik.values.remember}
            onCheckedChange={(details) =>
              void formik.setFieldValue('remember', details.checked === true)
            }
            colorPalette="teal"
            size="sm"
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Remember me</Checkbox.Label>
          </Checkbox.Root>
          <Button variant="plain" size="sm" color="teal.700" px="0" onClick={onForgotPassword}>
            Forgot password?
          </Button>
        </Flex>
        <Button
          type="submit"
          colorPalette="teal"
          size="lg"
          disabled={!valid}
          loading={formik.isSubmitting}
        >
          Sign in
        </Button>
        <FormError message={serverError} />
        {unconfirmed && <ConfirmEmailFirst email={unconfirmed} />}
      </Stack>
    </form>
  );
}
