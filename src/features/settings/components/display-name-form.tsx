// Changes the display name shown in the header, the sidebar and the dashboard's welcome line.
import { useState } from 'react';
import { useFormik } from 'formik';
import { Button, HStack, Stack } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { displayName, useAuth } from '../../../lib/auth';
import { displayNameSchema, useUpdateDisplayName } from '../api/update-display-name';
import { errorMessage, InlineError } from './settings-section';

export function DisplayNameForm() {
  const { user } = useAuth();
  const current = displayName(user) ?? '';
  const update = useUpdateDisplayName();
  const [serverError, setServerError] = useState<string | null>(null);

  const formik = useFormik({
    initialValues: { name: current },
    // Follows the saved name (USER_UPDATED) and changes made in another tab.
    enableReinitialize: true,
    validationSchema: displayNameSchema,
    onSubmit: async (values) => {
      setServerError(null);
      try {
        const saved = await update.mutateAsync(values);
        notify('success', 'Display name saved', `You now appear as ${saved}.`);
      } catch (caught) {
        setServerError(errorMessage(caught, 'The display name could not be saved.'));
      }
    },
  });
  const unchanged = formik.values.name.trim() === current;
  const error = formik.touched.name || formik.submitCount > 0 ? formik.errors.name : undefined;

  return (
    <form onSubmit={formik.handleSubmit} noValidate>
      <Stack gap="4">
        <TextField
          label="Display name"
          autoComplete="name"
          {...formik.getFieldProps('name')}
          error={error}
          hint={user?.email ? `Signed in as ${user.email}.` : undefined}
          required
        />
        <HStack>
          <Button
            type="submit"
            colorPalette="teal"
            loading={formik.isSubmitting}
            disabled={unchanged}
          >
            Save name
          </Button>
        </HStack>
        <InlineError message={serverError} />
      </Stack>
    </form>
  );
}
