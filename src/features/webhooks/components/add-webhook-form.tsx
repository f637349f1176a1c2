// Adds a webhook to a form: URL, payload format (tinyback JSON, Slack or Discord preset) and
// whether spam is sent too. Yup checks the URL's shape; the database refuses targets a webhook
// may not reach and its reason is shown on the field. Its other refusals (10 webhooks per form,
// 25 per account) are shown under the form.
import { useId, useState } from 'react';
import { useFormik } from 'formik';
import * as yup from 'yup';
import { Alert, Button, Field, NativeSelect, Stack, Switch } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { useCreateWebhook, webhookUrlSchema, WEBHOOK_FORMATS } from '../api/create-webhook';
import type { WebhookFormat } from '../api/get-webhooks';
import { describeWebhookError, FORMAT_HINTS, FORMAT_LABELS, isUrlRefusal } from '../webhook-texts';
import { useUnsavedChanges } from '../../../components/unsaved-changes';

interface Values {
  url: string;
  format: WebhookFormat;
  send_spam: boolean;
}

const EMPTY: Values = { url: '', format: 'json', send_spam: false };
const schema = yup.object({ url: webhookUrlSchema });

export function AddWebhookForm({ formId }: { formId: string }) {
  const create = useCreateWebhook();
  const formatId = useId();
  // The database's refusal of the URL (on the field), or of adding one at all (under the form).
  const [serverError, setServerError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const formik = useFormik<Values>({
    initialValues: EMPTY,
    validationSchema: schema,
    onSubmit: async (values, helpers) => {
      setServerError(null);
      setFormError(null);
      try {
        await create.mutateAsync({ formId, ...values, url: values.url.trim() });
        helpers.resetForm({ values: EMPTY });
        notify('success', 'Webhook added', 'New messages are posted to it from now on.');
      } catch (error) {
        const message = describeWebhookError(error, 'add the webhook');
        if (isUrlRefusal(error)) {
          helpers.setFieldError('url', message);
          setServerError(message);
        } else {
          setFormError(message);
        }
      }
    },
  });
  // A URL typed but not added yet is a change the Edit dialog must not lose silently.
  useUnsavedChanges(formik.dirty);
  const urlError =
    formik.touched.url || formik.submitCount > 0 ? (formik.errors.url ?? serverError) : undefined;

  return (
    <form onSubmit={formik.handleSubmit} noValidate aria-label="Add a webhook">
      <Stack gap="3" borderWidth="1px" borderRadius="md" p="3">
        <TextField
          label="Webhook URL"
          type="url"
          inputMode="url"
          placeholder="https://example.com/hooks/tinyback"
          autoComplete="off"
          maxLength={2000}
          {...formik.getFieldProps('url')}
          onChange={(e) => {
            setServerError(null);
            formik.handleChange(e);
          }}
          error={urlError ?? undefined}
          required
        />
        <Field.Root>
          <Field.Label htmlFor={formatId}>Payload</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field id={formatId} {...formik.getFieldProps('format')}>
              {WEBHOOK_FORMATS.map((format) => (
                <option key={format} value={format}>
                  {FORMAT_LABELS[format]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.HelperText>{FORMAT_HINTS[formik.values.format]}</Field.HelperText>
        </Field.Root>
        <Switch.Root
          name="send_spam"
          checked={formik.values.send_spam}
          onCheckedChange={(d) => void formik.setFieldValue('send_spam', d.checked)}
          colorPalette="teal"
          size="sm"
        >
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>Also send messages marked as spam</Switch.Label>
        </Switch.Root>
        {formError && (
          <Alert.Root status="error" role="alert" size="sm">
            <Alert.Indicator />
            <Alert.Title>{formError}</Alert.Title>
          </Alert.Root>
        )}
        <div>
          <Button type="submit" size="sm" colorPalette="teal" loading={formik.isSubmitting}>
            Add webhook
          </Button>
        </div>
      </Stack>
    </form>
  );
}
