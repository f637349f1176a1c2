// Sets a new password for the signed-in user: the current password, then the new one twice.
import { useState } from 'react';
import { useFormik } from 'formik';
import { Button, HStack, Stack } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { PASSWORD_MIN_LENGTH } from '../../../config/site';
import { useAuth } from '../../../lib/auth';
import {
  changePasswordSchema,
  useChangePassword,
  WrongCurrentPasswordError,
} from '../api/change-password';
import { errorMessage, InlineError } from './settings-section';

export function PasswordForm() {
  const { user } = useAuth();
  const change = useChangePassword();
  const [serverError, setServerError] = useState<string | null>(null);

  const formik = useFormik({
    initialValues: { current: '', password: '', confirm: '' },
    validationSchema: changePasswordSchema,
    onSubmit: async (values, helpers) => {
      setServerError(null);
      try {
        await change.mutateAsync({ ...values, email: user?.email ?? '' });
        helpers.resetForm();
        notify(
          'success',
          'Password changed',
          'Use your new password next time you log in. We e-mailed you a notice of the change.',
        );
      } catch (caught) {
        if (caught instanceof WrongCurrentPasswordError) {
          helpers.setFieldError('current', caught.message);
          helpers.setFieldValue('current', '', false);
        } else setServerError(errorMessage(caught, 'The password could not be changed.'));
      }
    },
  });
  const fieldError = (name: 'current' | 'password' | 'confirm') =>
    formik.touched[name] || formik.submitCount > 0 ? formik.errors[name] : undefined;

  return (
    <form onSubmit={formik.handleSubmit} noValidate>
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
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...formik.getFieldProps('current')}
          error={fieldError('current')}
          hint="To be sure it is you."
          required
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          {...formik.getFieldProps('password')}
          error={fieldError('password')}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          required
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          {...formik.getFieldProps('confirm')}
          error={fieldError('confirm')}
          required
        />
        <HStack>
          <Button type="submit" colorPalette="teal" loading={formik.isSubmitting}>
            Change password
          </Button>
        </HStack>
        <InlineError message={serverError} />
      </Stack>
    </form>
  );
}
