// A form's file uploads, in its settings (the Edit dialog's "Files" tab): on or off (off until
// the owner turns them on), the kinds of file visitors may send, and the largest file, the largest
// total per submission and the most files, each held to the deployment's ceilings. Saved on its
// own ("Save file settings").
import { useId } from 'react';
import { useFormik } from 'formik';
import { Box, Checkbox, Field, Heading, Link, Stack, Switch, Text } from '@chakra-ui/react';
import {
  SettingLoadError,
  SettingLoading,
  SettingSaveRow,
} from '../../../components/setting-states';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { paths } from '../../../config/paths';
import {
  FILE_KIND_LABELS,
  FILE_KINDS,
  UPLOAD_LIMITS,
  type FileKind,
} from '../../../config/uploads';
import { useUploadSettings } from '../api/get-upload-settings';
import { useSaveUploadSettings } from '../api/save-upload-settings';
import { describeUploadSettingsError } from '../upload-errors';
import {
  MAX_FILE_MB,
  MAX_TOTAL_MB,
  MIN_MB,
  describeUploads,
  rowToSave,
  uploadSettingsSchema,
  valuesOf,
  type UploadValues,
} from '../upload-settings';

export interface FilesSectionProps {
  formId: string;
}

export function FilesSection({ formId }: FilesSectionProps) {
  const headingId = useId();
  const settings = useUploadSettings(formId);

  return (
    <Stack as="section" aria-labelledby={headingId} gap="3">
      <Heading as="h3" id={headingId} size="sm">
        Files
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Let visitors attach files to their message. Files are checked by their content, kept private
        and only you can download them.{' '}
        <Link
          href={`${paths.docs}#uploads`}
          target="_blank"
          rel="noopener"
          colorPalette="teal"
          variant="underline"
        >
          About file uploads
        </Link>
      </Text>
      {settings.isPending ? (
        <SettingLoading>Loading the file settings…</SettingLoading>
      ) : settings.isError ? (
        <SettingLoadError
          title="Could not load the file settings."
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <FilesForm
          key={JSON.stringify(settings.data)}
          formId={formId}
          initial={valuesOf(settings.data)}
        />
      )}
    </Stack>
  );
}

function FilesForm({ formId, initial }: { formId: string; initial: UploadValues }) {
  const save = useSaveUploadSettings();
  const kindsLabelId = useId();
  const kindsErrorId = useId();

  const formik = useFormik<UploadValues>({
    initialValues: initial,
    validationSchema: uploadSettingsSchema,
    onSubmit: async (values) => {
      formik.setStatus(undefined);
      try {
        const saved = await save.mutateAsync({ formId, ...rowToSave(values, initial) });
        formik.resetForm({ values: valuesOf(saved) });
        notify('success', 'File settings saved', describeUploads(saved));
      } catch (error) {
        const message = describeUploadSettingsError(error, 'save the file settings');
        formik.setStatus(message);
        notify('error', 'File settings not saved', message);
      }
    },
  });
  useUnsavedChanges(formik.dirty);

  const errorOf = (name: keyof UploadValues) =>
    formik.touched[name] || formik.submitCount > 0
      ? (formik.errors[name] as string | undefined)
      : undefined;
  const kindsError = errorOf('kinds');
  const toggleKind = (kind: FileKind, checked: boolean) => {
    const next = checked
      ? FILE_KINDS.filter((k) => k === kind || formik.values.kinds.includes(k))
      : formik.values.kinds.filter((k) => k !== kind);
    void formik.setFieldValue('kinds', next);
    void formik.setFieldTouched('kinds', true, false);
  };

  return (
    <form onSubmit={formik.handleSubmit} noValidate aria-label="File uploads">
      <Stack gap="4" borderWidth="1px" borderRadius="md" p="3">
        <Field.Root>
          <Switch.Root
            name="enabled"
            checked={formik.values.enabled}
            onCheckedChange={(details) => {
              formik.setStatus(undefined);
              void formik.setFieldValue('enabled', details.checked);
            }}
            colorPalette="teal"
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label>Accept files</Switch.Label>
          </Switch.Root>
          <Field.HelperText>
            {formik.values.enabled
              ? 'Posts may carry files within the limits below; a file of another kind, or too large, is refused with a message saying why.'
              : 'Off: posts with files are refused. Turn on to choose what visitors may send.'}
          </Field.HelperText>
        </Field.Root>

        {formik.values.enabled && (
          <>
            <Box
              as="fieldset"
              role="group"
              aria-labelledby={kindsLabelId}
              aria-describedby={kindsError ? kindsErrorId : undefined}
              aria-invalid={kindsError ? true : undefined}
            >
              <Text as="legend" id={kindsLabelId} fontSize="sm" fontWeight="medium" mb="2">
                Kinds of file allowed
              </Text>
              <Stack gap="2">
                {FILE_KINDS.map((kind) => (
                  <Checkbox.Root
                    key={kind}
                    name="kinds"
                    value={kind}
                    checked={formik.values.kinds.includes(kind)}
                    onCheckedChange={(details) => toggleKind(kind, details.checked === true)}
                    colorPalette="teal"
                    size="sm"
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{FILE_KIND_LABELS[kind]}</Checkbox.Label>
                  </Checkbox.Root>
                ))}
              </Stack>
              <Text fontSize="xs" color="fg.muted" mt="2">
                Judged from each file’s content, never its name. Web pages and SVG images count as
                text and are only ever downloaded, never shown.
              </Text>
              {kindsError && (
                <Text id={kindsErrorId} fontSize="sm" color="fg.error" mt="1">
                  {kindsError}
                </Text>
              )}
            </Box>

            <Stack direction={{ base: 'column', sm: 'row' }} gap="3" align="flex-start">
              <TextField
                label="Largest file (MB)"
                type="number"
                inputMode="decimal"
                min={MIN_MB}
                max={MAX_FILE_MB}
                step={MIN_MB}
                hint={`Up to ${MAX_FILE_MB} MB.`}
                {...formik.getFieldProps('maxFileMb')}
                error={errorOf('maxFileMb')}
              />
              <TextField
                label="All files of a submission (MB)"
                type="number"
                inputMode="decimal"
                min={MIN_MB}
                max={MAX_TOTAL_MB}
                step={MIN_MB}
                hint={`Up to ${MAX_TOTAL_MB} MB.`}
                {...formik.getFieldProps('maxTotalMb')}
                error={errorOf('maxTotalMb')}
              />
              <TextField
                label="Most files per submission"
                type="number"
                inputMode="numeric"
                min={1}
                max={UPLOAD_LIMITS.maxFiles}
                step={1}
                hint={`Up to ${UPLOAD_LIMITS.maxFiles}.`}
                {...formik.getFieldProps('maxFiles')}
                error={errorOf('maxFiles')}
              />
            </Stack>
          </>
        )}

        <SettingSaveRow
          error={formik.status}
          saving={formik.isSubmitting}
          label="Save file settings"
        />
      </Stack>
    </form>
  );
}
