// Names a new API key and chooses its scope, then creates it; the key itself is shown by
// NewApiKeyNotice, once.
import { useState } from 'react';
import { useFormik } from 'formik';
import { Button, Field, NativeSelect, Stack } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import {
  API_KEY_SCOPES,
  createApiKeySchema,
  useCreateApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
} from '../api/create-api-key';
import { describeApiKeyError, SCOPE_DESCRIPTIONS, SCOPE_LABELS } from '../api-key-texts';
import { InlineError } from './settings-section';

export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const [serverError, setServerError] = useState<string | null>(null);

  const formik = useFormik<CreateApiKeyInput>({
    initialValues: { name: '', scope: 'read_only' },
    validationSchema: createApiKeySchema,
    onSubmit: async (values, helpers) => {
      setServerError(null);
      try {
        const key = await create.mutateAsync(values);
        helpers.resetForm();
        notify('success', 'API key created', `Copy "${key.name}" now: it is shown only once.`);
        onCreated(key);
      } catch (caught) {
        setServerError(describeApiKeyError(caught));
      }
    },
  });
  const nameError = formik.touched.name || formik.submitCount > 0 ? formik.errors.name : undefined;

  return (
    <form onSubmit={formik.handleSubmit} noValidate aria-label="Create an API key">
      <Stack gap="4">
        <Stack direction={{ base: 'column', sm: 'row' }} gap="4" align={{ sm: 'flex-start' }}>
          <TextField
            label="Key name"
            placeholder="CRM sync"
            autoComplete="off"
            maxLength={200}
            {...formik.getFieldProps('name')}
            error={nameError}
            required
          />
          <Field.Root required invalid={Boolean(formik.errors.scope)}>
            <Field.Label>Access</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field {...formik.getFieldProps('scope')}>
                {API_KEY_SCOPES.map((scope) => (
                  <option key={scope} value={scope}>
                    {SCOPE_LABELS[scope]}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Field.HelperText>{SCOPE_DESCRIPTIONS[formik.values.scope]}</Field.HelperText>
            <Field.ErrorText>{formik.errors.scope}</Field.ErrorText>
          </Field.Root>
        </Stack>
        <div>
          <Button type="submit" colorPalette="teal" loading={formik.isSubmitting}>
            Create key
          </Button>
        </div>
        <InlineError message={serverError} />
      </Stack>
    </form>
  );
}
