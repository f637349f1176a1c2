// A form's retention rule, in its settings: keep messages until deleted, delete them after a
// number of days (the number beside that choice), or forward only (e-mail and webhooks, then
// delete). Saved on its own ("Save retention"). A new rule that would delete messages already
// stored asks first, saying how many (a head count of them).
import { useId, useState } from 'react';
import { useFormik } from 'formik';
import { Alert, Box, Heading, Link, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { paths } from '../../../config/paths';
import { useCountRetentionDeletions } from '../api/count-retention-deletions';
import { useRetention, type RetentionRule } from '../api/get-retention';
import {
  RETENTION_DAYS,
  retentionSchema,
  useSaveRetention,
  type RetentionChoice,
} from '../api/save-retention';
import { describeSettingError } from '../setting-errors';
import {
  SettingLoadError,
  SettingLoading,
  SettingSaveRow,
} from '../../../components/setting-states';
import { useUnsavedChanges } from '../../../components/unsaved-changes';

export interface RetentionSectionProps {
  formId: string;
}

interface Values {
  choice: RetentionChoice;
  days: string;
}

const CHOICES: { value: RetentionChoice; label: string; hint: string }[] = [
  { value: 'keep', label: 'Keep messages until I delete them', hint: 'The default.' },
  {
    value: 'days',
    label: 'Delete messages after a number of days',
    hint: 'Checked every minute; spam included.',
  },
  {
    value: 'forward_only',
    label: 'Forward only, don’t store',
    hint: 'Each message is e-mailed and sent to your webhooks, then deleted once every delivery has gone out or finally failed. A message nothing can be sent for is deleted at once.',
  },
];

function valuesOf(rule: RetentionRule | null): Values {
  if (!rule) return { choice: 'keep', days: '90' };
  return { choice: rule.mode, days: String(rule.days ?? 90) };
}

const messages = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;

/** What saving `values` would delete, for the question asked first; null when it deletes nothing. */
function deletionQuestion(
  values: Values,
  count: number | null,
): { title: string; description: string } | null {
  if (values.choice === 'keep' || count === 0) return null;
  const rule =
    values.choice === 'days'
      ? `older than ${values.days} ${Number(values.days) === 1 ? 'day' : 'days'}`
      : 'stored now';
  if (count === null) {
    return {
      title: 'Delete messages of this form?',
      description: `The messages of this form ${rule} will be deleted (we could not count them just now). Deleted messages cannot be restored.`,
    };
  }
  const when =
    values.choice === 'days'
      ? 'within a minute of saving'
      : 'once each has been e-mailed and sent to your webhooks (at once for those already sent)';
  return {
    title: `Delete ${messages(count)}?`,
    description: `${count === 1 ? 'The 1 message' : `The ${messages(count)}`} of this form ${rule} will be deleted ${when}. Deleted messages cannot be restored.`,
  };
}

/** The rule in a sentence ("Messages are deleted after 30 days."). */
function describeRetention(rule: RetentionRule | null): string {
  if (!rule) return 'Messages are kept until you delete them.';
  if (rule.mode === 'forward_only') return 'Messages are deleted once they have been delivered.';
  return `Messages are deleted after ${rule.days} ${rule.days === 1 ? 'day' : 'days'}.`;
}

export function RetentionSection({ formId }: RetentionSectionProps) {
  const headingId = useId();
  const rule = useRetention(formId);

  return (
    <Stack as="section" aria-labelledby={headingId} gap="3">
      <Heading as="h3" id={headingId} size="sm">
        Retention
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Keep only what you need: deleted messages cannot be restored.{' '}
        <Link
          href={`${paths.docs}#retention`}
          target="_blank"
          rel="noopener"
          colorPalette="teal"
          variant="underline"
        >
          About retention
        </Link>
      </Text>
      {rule.isPending ? (
        <SettingLoading>Loading the retention rule…</SettingLoading>
      ) : rule.isError ? (
        <SettingLoadError
          title="Could not load the retention rule."
          onRetry={() => void rule.refetch()}
        />
      ) : (
        <RetentionForm
          key={`${rule.data?.mode ?? 'keep'}:${rule.data?.days ?? ''}`}
          formId={formId}
          initial={valuesOf(rule.data)}
        />
      )}
    </Stack>
  );
}

/** Whether `values` is another rule than the saved one (an unchanged rule deletes nothing new). */
function isNewRule(values: Values, initial: Values): boolean {
  if (values.choice !== initial.choice) return true;
  return values.choice === 'days' && Number(values.days) !== Number(initial.days);
}

function RetentionForm({ formId, initial }: { formId: string; initial: Values }) {
  const save = useSaveRetention();
  const countDeletions = useCountRetentionDeletions();
  // The rule waiting for the owner's yes, and what it would delete.
  const [asking, setAsking] = useState<{
    values: Values;
    question: { title: string; description: string };
  } | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  async function store(values: Values): Promise<string | null> {
    try {
      const saved = await save.mutateAsync({
        formId,
        choice: values.choice,
        days: values.choice === 'days' ? Number(values.days) : undefined,
      });
      formik.resetForm({ values: valuesOf(saved) });
      notify('success', 'Retention saved', describeRetention(saved));
      return null;
    } catch (error) {
      const message = describeSettingError(error, 'save the retention rule');
      formik.setStatus(message);
      notify('error', 'Retention not saved', message);
      return message;
    }
  }

  const formik = useFormik<Values>({
    initialValues: initial,
    validationSchema: retentionSchema,
    onSubmit: async (values) => {
      formik.setStatus(undefined);
      if (values.choice !== 'keep' && isNewRule(values, initial)) {
        let count: number | null;
        try {
          count = await countDeletions({
            formId,
            choice: values.choice,
            days: values.choice === 'days' ? Number(values.days) : undefined,
          });
        } catch {
          count = null;
        }
        const question = deletionQuestion(values, count);
        if (question) {
          setConfirmError(null);
          setAsking({ values, question });
          return;
        }
      }
      await store(values);
    },
  });
  useUnsavedChanges(formik.dirty);
  const daysError = formik.touched.days || formik.submitCount > 0 ? formik.errors.days : undefined;

  return (
    <form onSubmit={formik.handleSubmit} noValidate aria-label="Retention">
      <ConfirmDialog
        overDialog
        open={asking !== null}
        title={asking?.question.title ?? ''}
        description={asking?.question.description ?? ''}
        confirmLabel="Save and delete"
        pending={save.isPending}
        error={confirmError}
        onConfirm={() => {
          if (!asking) return;
          void store(asking.values).then((refusal) => {
            if (refusal) setConfirmError(refusal);
            else setAsking(null);
          });
        }}
        onClose={() => setAsking(null)}
      />
      <Stack gap="3" borderWidth="1px" borderRadius="md" p="3">
        <RadioGroup.Root
          name="choice"
          value={formik.values.choice}
          onValueChange={(d) => {
            formik.setStatus(undefined);
            void formik.setFieldValue('choice', d.value ?? 'keep');
          }}
          colorPalette="teal"
          size="sm"
        >
          <RadioGroup.Label srOnly>What happens to this form’s messages</RadioGroup.Label>
          <Stack gap="3">
            {CHOICES.map((choice) => (
              <Stack key={choice.value} gap="2">
                <RadioGroup.Item value={choice.value} alignItems="flex-start">
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator mt="0.5" />
                  <Stack gap="0">
                    <RadioGroup.ItemText>{choice.label}</RadioGroup.ItemText>
                    <Text fontSize="xs" color="fg.muted">
                      {choice.hint}
                    </Text>
                  </Stack>
                </RadioGroup.Item>
                {/* The number belongs to its choice: right under it, aligned with its text. */}
                {choice.value === 'days' && formik.values.choice === 'days' && (
                  <Box ps="6" data-testid="retention-days">
                    <TextField
                      label="Days to keep messages"
                      type="number"
                      inputMode="numeric"
                      min={RETENTION_DAYS.min}
                      max={RETENTION_DAYS.max}
                      step={1}
                      maxW="40"
                      hint={`${RETENTION_DAYS.min} to ${RETENTION_DAYS.max} days.`}
                      {...formik.getFieldProps('days')}
                      error={daysError}
                    />
                  </Box>
                )}
              </Stack>
            ))}
          </Stack>
        </RadioGroup.Root>

        {formik.values.choice === 'forward_only' && (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Title fontSize="sm">
              New messages will disappear from your inbox once delivered. Messages already stored
              are deleted too.
            </Alert.Title>
          </Alert.Root>
        )}

        <SettingSaveRow error={formik.status} saving={formik.isSubmitting} label="Save retention" />
      </Stack>
    </form>
  );
}
