// A draft's editor: its list, subject, sender (the list's unless the draft names its own) and
// Markdown body with a live preview, saved with Save.
// Saved, it can be sent now (asked first, naming the list and how many confirmed subscribers it
// has now) or scheduled for later; a draft can also be deleted. A test goes to the owner's own
// address at any time: unsaved edits are saved first, so the test is what the editor shows.
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useFormik } from 'formik';
import * as yup from 'yup';
import {
  Alert,
  Box,
  Button,
  Field,
  Flex,
  Heading,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Markdown } from '../../../components/markdown';
import { notify } from '../../../components/toaster';
import { paths } from '../../../config/paths';
import { visibleText } from '../../../lib/visible-text';
import { useDeleteCampaign } from '../api/delete-campaign';
import { useConfirmedCount } from '../api/get-confirmed-count';
import { useStartCampaign } from '../api/start-campaign';
import { useUpdateCampaign } from '../api/update-campaign';
import { senderFields } from '../list-schema';
import { describeCampaignError } from '../newsletter-errors';
import type { Campaign, NewsletterList } from '../newsletter-types';
import { ScheduleDialog } from './schedule-dialog';
import { SendTestButton, SendTestError, useCampaignTest } from './send-test';

const SUBJECT_MAX = 200;
const BODY_MAX_BYTES = 100 * 1024;
// Control characters and line separators: a subject is one line (the database's rule).
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\x01-\x1f\x7f-\x9f\u2028\u2029]/;
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' });

const draftSchema = yup.object({
  list_id: yup.string().required('Choose a list.'),
  subject: yup
    .string()
    .max(SUBJECT_MAX, `A subject is at most ${SUBJECT_MAX} characters.`)
    .test('one-line', 'A subject is one line.', (value) => !LINE_BREAKING.test(value ?? '')),
  body_markdown: yup
    .string()
    .test(
      'size',
      'The message is at most 100 KB.',
      (value) => new TextEncoder().encode(value ?? '').length <= BODY_MAX_BYTES,
    ),
  ...senderFields,
});

interface DraftValues {
  list_id: string;
  subject: string;
  body_markdown: string;
  /** '' is the list's. */
  from_name: string;
  reply_to: string;
}

export function CampaignComposer({
  campaign,
  lists,
}: {
  campaign: Campaign;
  lists: readonly NewsletterList[];
}) {
  const navigate = useNavigate();
  const listId = useId();
  const subjectId = useId();
  const fromNameId = useId();
  const replyToId = useId();
  const bodyId = useId();
  const previewId = useId();
  const update = useUpdateCampaign();
  const start = useStartCampaign();
  const remove = useDeleteCampaign();
  const [asking, setAsking] = useState<'send' | 'schedule' | 'delete' | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const formik = useFormik<DraftValues>({
    initialValues: {
      list_id: campaign.list_id,
      subject: campaign.subject,
      body_markdown: campaign.body_markdown,
      from_name: campaign.from_name ?? '',
      reply_to: campaign.reply_to ?? '',
    },
    validationSchema: draftSchema,
    onSubmit: async (values, helpers) => {
      helpers.setStatus(undefined);
      try {
        const saved = await update.mutateAsync({
          id: campaign.id,
          list_id: values.list_id,
          subject: values.subject.trim(),
          body_markdown: values.body_markdown,
          from_name: values.from_name.trim() || null,
          reply_to: values.reply_to.trim() || null,
        });
        helpers.resetForm({
          values: {
            list_id: saved.list_id,
            subject: saved.subject,
            body_markdown: saved.body_markdown,
            from_name: saved.from_name ?? '',
            reply_to: saved.reply_to ?? '',
          },
        });
        notify('success', 'Draft saved');
        return true;
      } catch (error) {
        helpers.setStatus(describeCampaignError(error, 'save the draft'));
        return false;
      }
    },
  });
  // Formik's submitForm answers what onSubmit returned, and nothing when a field is invalid (the
  // fields then show why).
  const test = useCampaignTest(campaign.id, async () =>
    formik.dirty ? (await formik.submitForm()) === true : true,
  );

  const savedList = lists.find((list) => list.id === campaign.list_id);
  // What a blank sender field stands for: the chosen list's own.
  const chosenList = lists.find((list) => list.id === formik.values.list_id);
  const listName = savedList ? visibleText(savedList.name) : 'this list';
  const confirmed = useConfirmedCount(campaign.list_id);
  const ready = campaign.subject.trim() !== '' && campaign.body_markdown.trim() !== '';
  const blocked = formik.dirty
    ? 'Save your changes before sending.'
    : !ready
      ? 'Write a subject and a message, and save them, to send.'
      : null;
  const testable = formik.values.subject.trim() !== '' && formik.values.body_markdown.trim() !== '';
  const recipients = confirmed.isSuccess
    ? `${confirmed.data} confirmed ${confirmed.data === 1 ? 'subscriber' : 'subscribers'}`
    : 'the confirmed subscribers';

  function ask(what: 'send' | 'schedule' | 'delete') {
    setActionError(null);
    setAsking(what);
  }

  async function sendAt(at: string | null) {
    setActionError(null);
    try {
      const answer = await start.mutateAsync({ campaignId: campaign.id, at });
      if (answer.status === 'sending')
        notify(
          'success',
          'Sending started',
          `${answer.recipients} ${answer.recipients === 1 ? 'recipient' : 'recipients'} on ${listName}.`,
        );
      else
        notify(
          'success',
          'Campaign scheduled',
          `It goes out ${dateFormat.format(new Date(answer.scheduled_at))}.`,
        );
      setAsking(null);
    } catch (error) {
      setActionError(
        describeCampaignError(error, at ? 'schedule the campaign' : 'send the campaign'),
      );
    }
  }

  async function deleteDraft() {
    setActionError(null);
    try {
      await remove.mutateAsync(campaign.id);
      notify('success', 'Draft deleted');
      setAsking(null);
      navigate(`${paths.dashboardNewsletter}?tab=campaigns`);
    } catch (error) {
      setActionError(describeCampaignError(error, 'delete the draft'));
    }
  }

  const errorOf = (field: keyof DraftValues) =>
    formik.touched[field] || formik.submitCount > 0 ? formik.errors[field] : undefined;

  return (
    <Stack gap="5">
      <form noValidate onSubmit={formik.handleSubmit} aria-label="Campaign draft">
        <Stack gap="4">
          <Field.Root required invalid={Boolean(errorOf('list_id'))} maxW="sm">
            <Field.Label htmlFor={listId}>List</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field id={listId} {...formik.getFieldProps('list_id')}>
                {lists.map((list) => (
                  <option key={list.id} value={list.id}>
                    {visibleText(list.name)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Field.ErrorText>{errorOf('list_id')}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={Boolean(errorOf('subject'))}>
            <Field.Label htmlFor={subjectId}>Subject</Field.Label>
            <Input
              id={subjectId}
              maxLength={SUBJECT_MAX}
              placeholder="What's new in November"
              {...formik.getFieldProps('subject')}
            />
            <Field.ErrorText>{errorOf('subject')}</Field.ErrorText>
          </Field.Root>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Field.Root invalid={Boolean(errorOf('from_name'))}>
              <Field.Label htmlFor={fromNameId}>Sender name</Field.Label>
              <Input
                id={fromNameId}
                maxLength={60}
                autoComplete="off"
                placeholder={chosenList ? visibleText(chosenList.from_name ?? chosenList.name) : ''}
                {...formik.getFieldProps('from_name')}
              />
              <Field.HelperText>Empty: the list’s sender name.</Field.HelperText>
              <Field.ErrorText>{errorOf('from_name')}</Field.ErrorText>
            </Field.Root>
            <Field.Root invalid={Boolean(errorOf('reply_to'))}>
              <Field.Label htmlFor={replyToId}>Reply-to</Field.Label>
              <Input
                id={replyToId}
                type="email"
                maxLength={254}
                autoComplete="off"
                placeholder={chosenList?.reply_to ?? 'you@example.com'}
                {...formik.getFieldProps('reply_to')}
              />
              <Field.HelperText>Empty: the list’s reply-to, if it has one.</Field.HelperText>
              <Field.ErrorText>{errorOf('reply_to')}</Field.ErrorText>
            </Field.Root>
          </SimpleGrid>
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
            <Field.Root invalid={Boolean(errorOf('body_markdown'))}>
              <Field.Label htmlFor={bodyId}>Message (Markdown)</Field.Label>
              <Textarea
                id={bodyId}
                rows={16}
                fontFamily="mono"
                fontSize="sm"
                placeholder={'## Hello!\n\nHere is what we have been up to…'}
                {...formik.getFieldProps('body_markdown')}
              />
              <Field.HelperText>
                Headings, **bold**, lists, links and tables. Every e-mail ends with an unsubscribe
                link.
              </Field.HelperText>
              <Field.ErrorText>{errorOf('body_markdown')}</Field.ErrorText>
            </Field.Root>
            <Box
              as="section"
              aria-labelledby={previewId}
              borderWidth="1px"
              borderRadius="lg"
              p="4"
              minW="0"
              bg="bg.subtle"
            >
              <Heading as="h2" size="sm" id={previewId} mb="2" color="fg.muted">
                Preview
              </Heading>
              {formik.values.body_markdown.trim() ? (
                <Markdown content={formik.values.body_markdown} />
              ) : (
                <Text color="fg.muted">Your message shows here as you write it.</Text>
              )}
            </Box>
          </SimpleGrid>
          {typeof formik.status === 'string' && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Title>{formik.status}</Alert.Title>
            </Alert.Root>
          )}
          <Flex gap="2" wrap="wrap" align="center">
            <Button
              type="submit"
              colorPalette="teal"
              loading={formik.isSubmitting}
              disabled={!formik.dirty}
            >
              Save
            </Button>
            <Button
              variant="solid"
              colorPalette="teal"
              disabled={blocked !== null}
              onClick={() => ask('send')}
            >
              Send now
            </Button>
            <Button variant="outline" disabled={blocked !== null} onClick={() => ask('schedule')}>
              Schedule…
            </Button>
            <SendTestButton test={test} disabled={!testable || formik.isSubmitting} />
            <Button
              variant="ghost"
              colorPalette="red"
              ms={{ md: 'auto' }}
              onClick={() => ask('delete')}
            >
              Delete draft
            </Button>
          </Flex>
          {blocked && (
            <Text fontSize="sm" color="fg.muted">
              {blocked}
            </Text>
          )}
          <SendTestError test={test} />
        </Stack>
      </form>
      <ConfirmDialog
        open={asking === 'send'}
        title={`Send to ${listName} now?`}
        description={
          confirmed.data === 0
            ? `${listName} has no confirmed subscribers yet: nobody would get “${visibleText(campaign.subject)}”, and the campaign would be spent. Wait for signups, or import subscribers first.`
            : `“${visibleText(campaign.subject)}” goes to the ${recipients} of ${listName}. Once it starts you can pause or cancel it, but not take back what was sent.`
        }
        confirmLabel="Send now"
        pending={start.isPending}
        error={actionError}
        onConfirm={() => void sendAt(null)}
        onClose={() => setAsking(null)}
      />
      <ScheduleDialog
        open={asking === 'schedule'}
        listName={listName}
        pending={start.isPending}
        error={actionError}
        onSchedule={(iso) => void sendAt(iso)}
        onClose={() => setAsking(null)}
      />
      <ConfirmDialog
        open={asking === 'delete'}
        title="Delete this draft?"
        description="It has not been sent to anyone. This cannot be undone."
        confirmLabel="Delete draft"
        pending={remove.isPending}
        error={actionError}
        onConfirm={() => void deleteDraft()}
        onClose={() => setAsking(null)}
      />
    </Stack>
  );
}
