// A form's autoresponder, in its settings: on/off, subject and reply with merge fields, and a live
// preview of what a visitor receives, filled exactly as the database fills it (only {{name}},
// {{email}} and {{form}}, at most 10 per template). Saved on its own ("Save reply"); unsaved changes
// are reported to the Edit dialog.
import { useId, useMemo } from 'react';
import { useFormik } from 'formik';
import {
  Alert,
  Box,
  Code,
  Field,
  Heading,
  Link,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { paths } from '../../../config/paths';
import { useAutoresponder, type Autoresponder } from '../api/get-autoresponder';
import { autoresponderSchema, useSaveAutoresponder } from '../api/save-autoresponder';
import {
  AUTORESPONSE_LIMITS,
  autoresponseValues,
  DEFAULT_SUBJECT,
  defaultFromName,
  fillTemplate,
  FROM_NAME_MAX,
  MAX_MERGE_FIELDS,
  MERGE_FIELD_HINTS,
  MERGE_FIELDS,
  renderSubject,
  unsentFieldsIn,
} from '../autoresponse-template';
import { describeSettingError } from '../setting-errors';
import {
  SettingLoadError,
  SettingLoading,
  SettingSaveRow,
} from '../../../components/setting-states';
import { useUnsavedChanges } from '../../../components/unsaved-changes';

export interface AutoresponderSectionProps {
  formId: string;
  formName: string;
  /** Where the form is embedded: named in the reply's footer. */
  allowedOrigin: string;
  /** Replies go out only once the form's target address is confirmed. */
  targetVerified: boolean;
}

interface Values {
  enabled: boolean;
  /** The replies' sender name; empty: "<form name> via tinyback". */
  fromName: string;
  subject: string;
  body: string;
}

const DEFAULT_BODY =
  'Hi {{name}},\n\nthanks for your message to {{form}}. We will get back to you soon.';

/** The visitor the preview replies to. */
const SAMPLE = { name: 'Ada Lovelace', email: 'ada@example.com' } as const;

const mergeField = (field: string) => `{{${field}}}`;

function valuesOf(saved: Autoresponder | null): Values {
  return saved
    ? {
        enabled: saved.enabled,
        fromName: saved.from_name ?? '',
        subject: saved.subject,
        body: saved.body,
      }
    : { enabled: false, fromName: '', subject: DEFAULT_SUBJECT, body: DEFAULT_BODY };
}

export function AutoresponderSection({
  formId,
  formName,
  allowedOrigin,
  targetVerified,
}: AutoresponderSectionProps) {
  const headingId = useId();
  const saved = useAutoresponder(formId);

  return (
    <Stack as="section" aria-labelledby={headingId} gap="3">
      <Heading as="h3" id={headingId} size="sm">
        Autoresponder
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Reply automatically to the address a visitor enters. Never to spam, at most once a day per
        address, and only once this form’s address is confirmed.{' '}
        <Link
          href={`${paths.docs}#autoresponder`}
          target="_blank"
          rel="noopener"
          colorPalette="teal"
          variant="underline"
        >
          About the autoresponder
        </Link>
      </Text>
      {!targetVerified && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title fontSize="sm">
            No replies go out until this form’s address is confirmed: open the link we e-mailed to
            it.
          </Alert.Title>
        </Alert.Root>
      )}
      {saved.isPending ? (
        <SettingLoading>Loading the autoresponder…</SettingLoading>
      ) : saved.isError ? (
        <SettingLoadError
          title="Could not load the autoresponder."
          onRetry={() => void saved.refetch()}
        />
      ) : (
        <AutoresponderForm
          // A fresh form when another saved version arrives.
          key={saved.data?.updated_at ?? 'new'}
          formId={formId}
          formName={formName}
          allowedOrigin={allowedOrigin}
          initial={valuesOf(saved.data)}
        />
      )}
    </Stack>
  );
}

function AutoresponderForm({
  formId,
  formName,
  allowedOrigin,
  initial,
}: Omit<AutoresponderSectionProps, 'targetVerified'> & { initial: Values }) {
  const save = useSaveAutoresponder();
  const bodyId = useId();
  const formik = useFormik<Values>({
    initialValues: initial,
    validationSchema: autoresponderSchema,
    onSubmit: async (values, helpers) => {
      try {
        await save.mutateAsync({ formId, ...values });
        helpers.resetForm({ values });
        notify(
          'success',
          values.enabled ? 'Autoresponder on' : 'Autoresponder saved',
          values.enabled ? 'New messages get your reply.' : 'It is switched off.',
        );
      } catch (error) {
        const message = describeSettingError(error, 'save the autoresponder');
        helpers.setStatus(message);
        notify('error', 'Autoresponder not saved', message);
      }
    },
  });
  useUnsavedChanges(formik.dirty);
  const shown = (field: keyof Values) =>
    formik.touched[field] || formik.submitCount > 0 ? formik.errors[field] : undefined;

  const preview = useMemo(() => {
    const values = autoresponseValues({
      name: SAMPLE.name,
      address: SAMPLE.email,
      formName,
    });
    return {
      to: values.email,
      from: formik.values.fromName.trim() || defaultFromName(formName),
      form: values.form,
      subject: renderSubject(formik.values.subject, values),
      body: fillTemplate(formik.values.body, values),
      unsent: [
        ...new Set([
          ...unsentFieldsIn(formik.values.subject),
          ...unsentFieldsIn(formik.values.body),
        ]),
      ],
    };
  }, [formik.values.subject, formik.values.body, formik.values.fromName, formName]);

  return (
    <form onSubmit={formik.handleSubmit} noValidate aria-label="Autoresponder">
      <Stack gap="3" borderWidth="1px" borderRadius="md" p="3">
        <Switch.Root
          name="enabled"
          checked={formik.values.enabled}
          onCheckedChange={(d) => void formik.setFieldValue('enabled', d.checked)}
          colorPalette="teal"
          size="sm"
        >
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>Send an automatic reply</Switch.Label>
        </Switch.Root>

        <TextField
          label="Sender name"
          maxLength={FROM_NAME_MAX}
          autoComplete="off"
          placeholder={defaultFromName(formName)}
          hint={`Shown as who the reply is from; the sending address does not change. Empty: “${defaultFromName(formName)}”.`}
          {...formik.getFieldProps('fromName')}
          error={shown('fromName')}
        />
        <TextField
          label="Subject"
          maxLength={AUTORESPONSE_LIMITS.subject}
          autoComplete="off"
          {...formik.getFieldProps('subject')}
          error={shown('subject')}
        />
        <Field.Root invalid={Boolean(shown('body'))}>
          <Field.Label htmlFor={bodyId}>Reply</Field.Label>
          <Textarea
            id={bodyId}
            rows={6}
            maxLength={AUTORESPONSE_LIMITS.body}
            {...formik.getFieldProps('body')}
          />
          <Field.HelperText>
            Plain text. Merge fields:{' '}
            {MERGE_FIELDS.map((field, i) => (
              <span key={field}>
                {i > 0 && (i === MERGE_FIELDS.length - 1 ? ' and ' : ', ')}
                <Code size="sm">{mergeField(field)}</Code> ({MERGE_FIELD_HINTS[field]})
              </span>
            ))}
            , at most {MAX_MERGE_FIELDS} in the subject and {MAX_MERGE_FIELDS} in the reply. Other
            fields of your form are left empty: the reply goes to an address nobody has confirmed,
            so it never repeats what a visitor typed.
          </Field.HelperText>
          <Field.ErrorText>{shown('body')}</Field.ErrorText>
        </Field.Root>

        <Box
          as="figure"
          aria-label="Preview of the reply"
          borderWidth="1px"
          borderRadius="md"
          bg="bg.subtle"
          p="3"
          fontSize="sm"
        >
          <Text as="figcaption" fontWeight="semibold" mb="2">
            Preview
          </Text>
          <Text overflowWrap="anywhere">
            <Text as="span" color="fg.muted">
              From:{' '}
            </Text>
            <span data-testid="preview-from">{preview.from}</span>
          </Text>
          <Text>
            <Text as="span" color="fg.muted">
              To:{' '}
            </Text>
            {preview.to}
          </Text>
          <Text>
            <Text as="span" color="fg.muted">
              Subject:{' '}
            </Text>
            <span data-testid="preview-subject">{preview.subject}</span>
          </Text>
          <Text mt="2" whiteSpace="pre-wrap" overflowWrap="anywhere" data-testid="preview-body">
            {preview.body}
          </Text>
          <Text mt="2" color="fg.muted" fontSize="xs" overflowWrap="anywhere">
            You receive this because this address was entered in the form “{preview.form}” on{' '}
            {allowedOrigin}.
          </Text>
          {/* Announced as it appears: a merge field that will stay empty. */}
          <div role="status">
            {preview.unsent.length > 0 && (
              <Text mt="2" color="orange.fg" data-testid="unsent-fields">
                Left empty in every reply:{' '}
                {preview.unsent.map((field, i) => (
                  <span key={field}>
                    {i > 0 && ', '}
                    <Code size="sm">{mergeField(field)}</Code>
                  </span>
                ))}
                . Only {MERGE_FIELDS.map(mergeField).join(', ')} are filled.
              </Text>
            )}
          </div>
        </Box>

        <SettingSaveRow error={formik.status} saving={formik.isSubmitting} label="Save reply" />
      </Stack>
    </form>
  );
}
