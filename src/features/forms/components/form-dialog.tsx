// The 'Create New Form' dialog, and the same dialog to edit a form with its settings, in tabs: the
// form itself (fields, e-mail notifications, thank-you page; saved by the dialog's Save), then
// webhooks, autoresponder, spam protection (CAPTCHA) and retention, each saved on its own. Formik +
// Yup check every field inline; a refusal from the server is shown in the dialog, on the field it
// concerns when there is one. A new form's target starts as the account's own address, which needs
// no confirmation.
import { useEffect, useRef, useState } from 'react';
import { useFormik } from 'formik';
import {
  Alert,
  Button,
  CloseButton,
  Dialog,
  Field,
  Portal,
  Separator,
  Stack,
  Switch,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import type { Form } from '../api/get-forms';
import { useAccountEmail } from '../api/get-account-email';
import { useCreateForm } from '../api/create-form';
import { useUpdateForm } from '../api/update-form';
import { describeFormError } from '../form-errors';
import {
  cleanDetails,
  cleanSettings,
  formDetailsSchema,
  formSettingsSchema,
  type FormDialogValues,
} from '../form-schema';
import { ORIGIN_EXAMPLE } from '../normalize-origin';
import { AutoresponderSection } from './autoresponder-section';
import { CaptchaSection } from './captcha-section';
import { RetentionSection } from './retention-section';
import { WebhooksSection } from './webhooks-section';

export interface FormDialogProps {
  open: boolean;
  onClose: () => void;
  /** The form to edit; without one the dialog creates a new form. */
  form?: Form | null;
  /** Called with the stored form after a successful create or save. */
  onSaved: (form: Form) => void;
}

const EMPTY: FormDialogValues = {
  name: '',
  target_email: '',
  allowed_origin: '',
  notify_email: true,
  redirect_url: '',
};

function valuesOf(form: Form | null | undefined): FormDialogValues {
  if (!form) return EMPTY;
  return {
    name: form.name,
    target_email: form.target_email,
    allowed_origin: form.allowed_origin,
    notify_email: form.notify_email,
    redirect_url: form.redirect_url ?? '',
  };
}

/** The Edit dialog's tabs; only the first one belongs to the dialog's Save button. */
const EDIT_TABS = [
  { value: 'form', label: 'Form' },
  { value: 'webhooks', label: 'Webhooks' },
  { value: 'autoresponder', label: 'Autoresponder' },
  { value: 'captcha', label: 'Spam protection' },
  { value: 'retention', label: 'Retention' },
] as const;
type EditTab = (typeof EDIT_TABS)[number]['value'];

export function FormDialog({ open, onClose, form, onSaved }: FormDialogProps) {
  const editing = Boolean(form);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      size="md"
      scrollBehavior="inside"
      // The fields start empty (or from the form) at every opening.
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{editing ? 'Edit Form' : 'Create New Form'}</Dialog.Title>
            </Dialog.Header>
            <FormDialogFields form={form} onCancel={onClose} onSaved={onSaved} />
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function FormDialogFields({
  form,
  onCancel,
  onSaved,
}: {
  form?: Form | null;
  onCancel: () => void;
  onSaved: (form: Form) => void;
}) {
  const editing = Boolean(form);
  const create = useCreateForm();
  const update = useUpdateForm();
  const account = useAccountEmail();
  const accountEmail = editing ? null : (account.data ?? null);
  const blank: FormDialogValues = { ...EMPTY, target_email: accountEmail ?? '' };
  const [serverError, setServerError] = useState<string | null>(null);
  const [tab, setTab] = useState<EditTab>('form');
  const tabList = useRef<HTMLDivElement>(null);
  const openTab = (value: EditTab) => {
    setTab(value);
    // At 390 px the strip scrolls: bring the chosen tab fully into view, not half cut off.
    requestAnimationFrame(() =>
      tabList.current
        ?.querySelector('[aria-selected="true"]')
        ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' }),
    );
  };

  const formik = useFormik<FormDialogValues>({
    initialValues: form ? valuesOf(form) : blank,
    validationSchema: editing ? formSettingsSchema : formDetailsSchema,
    onSubmit: async (values, helpers) => {
      setServerError(null);
      const action = editing ? 'save the form' : 'create the form';
      try {
        const saved = form
          ? await update.mutateAsync({ id: form.id, ...cleanSettings(values) })
          : await create.mutateAsync(cleanDetails(values));
        // Spec §4: after a successful create the inputs are cleared.
        helpers.resetForm({ values: editing ? valuesOf(saved) : blank });
        onSaved(saved);
      } catch (error) {
        const problem = describeFormError(error, action);
        if (problem.field) helpers.setFieldError(problem.field, problem.message);
        setServerError(problem.message);
      }
    },
  });

  // The account's address, known a moment after opening: filled in once, unless typed over.
  const prefilled = useRef(false);
  const { setFieldValue } = formik;
  const targetUntouched = !formik.touched.target_email && formik.values.target_email === '';
  useEffect(() => {
    if (prefilled.current || !accountEmail) return;
    prefilled.current = true;
    if (targetUntouched) void setFieldValue('target_email', accountEmail, false);
  }, [accountEmail, targetUntouched, setFieldValue]);

  const errorOf = (name: keyof FormDialogValues) =>
    formik.touched[name] || formik.submitCount > 0
      ? (formik.errors[name] as string | undefined)
      : undefined;
  const formId = editing ? 'edit-form' : 'create-form';

  const fields = (
    <form id={formId} onSubmit={formik.handleSubmit} noValidate>
      <Stack gap="4">
        <TextField
          label="Form name"
          placeholder="Contact"
          autoComplete="off"
          {...formik.getFieldProps('name')}
          error={errorOf('name')}
          required
        />
        <TextField
          label="Target e-mail address"
          type="email"
          placeholder="you@example.com"
          autoComplete="email"
          hint={
            editing
              ? 'Every new message is sent to this address.'
              : 'Every new message is sent to this address. Your account’s own address needs no confirmation; any other gets a confirmation link first.'
          }
          {...formik.getFieldProps('target_email')}
          error={errorOf('target_email')}
          required
        />
        <TextField
          label="Allowed origin"
          type="url"
          inputMode="url"
          placeholder={ORIGIN_EXAMPLE}
          autoComplete="url"
          hint="The website the form lives on: scheme, host and port only. Posts from other sites are refused."
          {...formik.getFieldProps('allowed_origin')}
          error={errorOf('allowed_origin')}
          required
        />
        {editing && (
          <>
            <Separator />
            <Text fontWeight="semibold">Settings</Text>
            <Field.Root>
              <Switch.Root
                name="notify_email"
                checked={formik.values.notify_email}
                onCheckedChange={(details) =>
                  void formik.setFieldValue('notify_email', details.checked)
                }
                colorPalette="teal"
              >
                <Switch.HiddenInput />
                <Switch.Control>
                  <Switch.Thumb />
                </Switch.Control>
                <Switch.Label>E-mail notifications</Switch.Label>
              </Switch.Root>
              <Field.HelperText>
                {formik.values.notify_email
                  ? 'Each new message is e-mailed to the target address.'
                  : 'No e-mails: new messages only appear in your dashboard.'}
              </Field.HelperText>
            </Field.Root>
            <TextField
              label="Thank-you page (optional)"
              type="url"
              inputMode="url"
              placeholder={`${formik.values.allowed_origin || ORIGIN_EXAMPLE}/thanks`}
              hint="Where visitors go after sending, unless the form names a page in _next. Empty: tinyback's thank-you page."
              {...formik.getFieldProps('redirect_url')}
              error={errorOf('redirect_url')}
            />
          </>
        )}
        {serverError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{serverError}</Alert.Title>
            </Alert.Content>
          </Alert.Root>
        )}
      </Stack>
    </form>
  );

  return (
    <>
      <Dialog.Body>
        {form ? (
          <Tabs.Root
            value={tab}
            onValueChange={(details) => openTab(details.value as EditTab)}
            variant="line"
            colorPalette="teal"
            // A section loads its data only when its tab is first opened, and starts afresh each time.
            lazyMount
            unmountOnExit
          >
            {/* At 390 px the tabs scroll sideways inside their own strip, never the page. */}
            <Tabs.List ref={tabList} overflowX="auto" overflowY="hidden" scrollbarWidth="thin">
              {EDIT_TABS.map((t) => (
                <Tabs.Trigger key={t.value} value={t.value} flexShrink={0} whiteSpace="nowrap">
                  {t.label}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="form" pt="4">
              {fields}
            </Tabs.Content>
            {/* Each is its own form, saved by its own button, not by "Save". */}
            <Tabs.Content value="webhooks" pt="4">
              <WebhooksSection formId={form.id} />
            </Tabs.Content>
            <Tabs.Content value="autoresponder" pt="4">
              <AutoresponderSection
                formId={form.id}
                formName={form.name}
                allowedOrigin={form.allowed_origin}
                targetVerified={form.target_verified}
              />
            </Tabs.Content>
            <Tabs.Content value="captcha" pt="4">
              <CaptchaSection form={form} />
            </Tabs.Content>
            <Tabs.Content value="retention" pt="4">
              <RetentionSection formId={form.id} />
            </Tabs.Content>
          </Tabs.Root>
        ) : (
          fields
        )}
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        {/* The other tabs save themselves; a Save there would not be theirs. */}
        {(!editing || tab === 'form') && (
          <Button type="submit" form={formId} colorPalette="teal" loading={formik.isSubmitting}>
            {editing ? 'Save' : 'Create'}
          </Button>
        )}
      </Dialog.Footer>
    </>
  );
}
