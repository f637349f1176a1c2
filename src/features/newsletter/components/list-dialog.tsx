// Creates a list or edits one: its name, the sender name and reply-to address of its mail, the
// site its signup form is on (the endpoint accepts posts from that origin only) and the owner's
// words in the confirmation e-mail. Formik + Yup check every field inline; a refusal from the
// server stays in the dialog.
import { useId } from 'react';
import { useFormik } from 'formik';
import {
  Alert,
  Button,
  CloseButton,
  Dialog,
  Field,
  Portal,
  Stack,
  Textarea,
} from '@chakra-ui/react';
import { useReturnFocus } from '../../../components/return-focus';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import { useCreateList } from '../api/create-list';
import { useUpdateList } from '../api/update-list';
import {
  CONFIRM_MESSAGE_MAX,
  cleanList,
  EMPTY_LIST_VALUES,
  listSchema,
  type ListFormValues,
} from '../list-schema';
import { describeListError } from '../newsletter-errors';
import type { NewsletterList } from '../newsletter-types';

export interface ListDialogProps {
  open: boolean;
  /** The list to edit; without one the dialog creates a list. */
  list?: NewsletterList | null;
  onClose: () => void;
  onSaved: (list: NewsletterList) => void;
}

function valuesOf(list: NewsletterList | null | undefined): ListFormValues {
  if (!list) return EMPTY_LIST_VALUES;
  return {
    name: list.name,
    from_name: list.from_name ?? '',
    reply_to: list.reply_to ?? '',
    allowed_origin: list.allowed_origin,
    confirm_message: list.confirm_message,
  };
}

export function ListDialog({ open, list, onClose, onSaved }: ListDialogProps) {
  const finalFocusEl = useReturnFocus(open);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      finalFocusEl={finalFocusEl}
      size="md"
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{list ? 'Edit list' : 'New list'}</Dialog.Title>
            </Dialog.Header>
            <ListFields list={list ?? null} onCancel={onClose} onSaved={onSaved} />
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function ListFields({
  list,
  onCancel,
  onSaved,
}: {
  list: NewsletterList | null;
  onCancel: () => void;
  onSaved: (list: NewsletterList) => void;
}) {
  const create = useCreateList();
  const update = useUpdateList();
  const confirmId = useId();
  const formik = useFormik<ListFormValues>({
    initialValues: valuesOf(list),
    validationSchema: listSchema,
    onSubmit: async (values, helpers) => {
      helpers.setStatus(undefined);
      const input = cleanList(values);
      try {
        const saved = list
          ? await update.mutateAsync({ id: list.id, ...input })
          : await create.mutateAsync(input);
        notify(
          'success',
          list ? 'List saved' : 'List created',
          list
            ? `${visibleText(saved.name)} is up to date.`
            : `Put its signup form on ${saved.allowed_origin} to collect subscribers.`,
        );
        onSaved(saved);
      } catch (error) {
        helpers.setStatus(describeListError(error, list ? 'save the list' : 'create the list'));
      }
    },
  });
  const errorOf = (field: keyof ListFormValues) =>
    formik.touched[field] || formik.submitCount > 0 ? formik.errors[field] : undefined;

  return (
    <form noValidate onSubmit={formik.handleSubmit}>
      <Dialog.Body>
        <Stack gap="4">
          <TextField
            label="List name"
            required
            placeholder="Product updates"
            {...formik.getFieldProps('name')}
            error={errorOf('name')}
          />
          <TextField
            label="Sender name"
            hint="Who your e-mail is from, as inboxes show it (optional)."
            placeholder="Ada at Example"
            {...formik.getFieldProps('from_name')}
            error={errorOf('from_name')}
          />
          <TextField
            label="Reply-to address"
            type="email"
            hint="Where replies to your campaigns go (optional)."
            placeholder="you@example.com"
            {...formik.getFieldProps('reply_to')}
            error={errorOf('reply_to')}
          />
          <TextField
            label="Your site's address"
            required
            type="url"
            hint="The signup form works only on this site."
            placeholder="https://your-site.com"
            {...formik.getFieldProps('allowed_origin')}
            error={errorOf('allowed_origin')}
          />
          <Field.Root invalid={Boolean(errorOf('confirm_message'))}>
            <Field.Label htmlFor={confirmId}>Confirmation words</Field.Label>
            <Textarea
              id={confirmId}
              rows={3}
              maxLength={CONFIRM_MESSAGE_MAX}
              placeholder="Thanks for signing up! Confirm your address and you'll get our monthly updates."
              {...formik.getFieldProps('confirm_message')}
            />
            <Field.HelperText>
              Your words in the e-mail that asks new subscribers to confirm.
            </Field.HelperText>
            <Field.ErrorText>{errorOf('confirm_message')}</Field.ErrorText>
          </Field.Root>
          {typeof formik.status === 'string' && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Title>{formik.status}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onCancel} disabled={formik.isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" colorPalette="teal" loading={formik.isSubmitting}>
          {list ? 'Save list' : 'Create list'}
        </Button>
      </Dialog.Footer>
    </form>
  );
}
