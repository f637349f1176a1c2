// The 'Create New Form' dialog, and the same dialog to edit a form with its settings, in tabs: the
// form itself (fields, e-mail notifications, thank-you page), webhooks, autoresponder, spam
// protection (CAPTCHA), retention and file uploads. One save model for every tab: each is saved by its own button
// in the tab ("Save form", "Save reply", …; a webhook's switches act at once), the dialog stays
// open, a tab with unsaved changes is marked, and closing with unsaved changes asks first (switching
// tabs keeps them). Formik + Yup check every field inline; a refusal from the server is shown in the dialog, on the field it
// concerns when there is one. A new form's target starts as the account's own address, which needs
// no confirmation. The settings tabs' sections belong to other features (webhooks, form-settings,
// uploads): the app passes them in as render props.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useFormik } from 'formik';
import {
  Alert,
  Box,
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
  VisuallyHidden,
} from '@chakra-ui/react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useReturnFocus } from '../../../components/return-focus';
import { TextField } from '../../../components/text-field';
import {
  UnsavedChangesScope,
  unsavedTabs,
  type UnsavedReport,
} from '../../../components/unsaved-changes';
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

/**
 * The Edit dialog's settings tabs for a form: each shows another feature's section (webhooks, form
 * settings), passed in by the app, since features never import each other.
 */
export interface SettingsTabRenderers {
  /** The Webhooks tab: the webhooks feature's section. */
  renderWebhooks?: (formId: string) => ReactNode;
  /** The Autoresponder tab: the form settings feature's autoresponder section. */
  renderAutoresponder?: (form: Form) => ReactNode;
  /** The Spam protection tab: the form settings feature's CAPTCHA section. */
  renderCaptcha?: (form: Form) => ReactNode;
  /** The Retention tab: the form settings feature's retention section. */
  renderRetention?: (formId: string) => ReactNode;
  /** The Files tab: the uploads feature's section. */
  renderFiles?: (formId: string) => ReactNode;
}

export interface FormDialogProps extends SettingsTabRenderers {
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

/** The Edit dialog's tabs, each saved by its own button. */
const EDIT_TABS = [
  { value: 'form', label: 'Form' },
  { value: 'webhooks', label: 'Webhooks' },
  { value: 'autoresponder', label: 'Autoresponder' },
  { value: 'captcha', label: 'Spam protection' },
  { value: 'retention', label: 'Retention' },
  { value: 'files', label: 'Files' },
] as const;
type EditTab = (typeof EDIT_TABS)[number]['value'];
const TAB_ORDER = EDIT_TABS.map((t) => t.value);
const labelOf = (tab: EditTab) => EDIT_TABS.find((t) => t.value === tab)?.label ?? tab;

/** "Autoresponder", "Autoresponder and Retention", "Form, Webhooks and Retention". */
function listOf(labels: readonly string[]): string {
  return labels.length < 2
    ? (labels[0] ?? '')
    : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

export function FormDialog({
  open,
  onClose,
  form: given,
  onSaved,
  ...settingsTabs
}: FormDialogProps) {
  // While it closes (its exit animation) the dialog keeps showing what it was opened for: an Edit
  // dialog must not turn into the create form under the pointer that pressed Close.
  const [kept, setKept] = useState<Form | null>(given ?? null);
  if (open && (given ?? null) !== kept) setKept(given ?? null);
  const form = open ? (given ?? null) : kept;
  const editing = Boolean(form);
  // The Edit dialog's tabs holding unsaved changes, and whether closing is being asked about.
  const [unsaved, setUnsaved] = useState<EditTab[]>([]);
  const [asking, setAsking] = useState(false);
  // From the dialog's content: the tabs with unsaved changes, or null once it is gone (closed).
  const unsavedChanged = useCallback((tabs: EditTab[] | null) => {
    setUnsaved(tabs ?? []);
    if (!tabs) setAsking(false);
  }, []);
  const requestClose = () => {
    if (editing && unsaved.length > 0) setAsking(true);
    else onClose();
  };

  // Closed, the focus goes back to what opened the dialog (return-focus.ts).
  const finalFocusEl = useReturnFocus(open);

  return (
    <>
      <Dialog.Root
        open={open}
        onOpenChange={(details) => !details.open && requestClose()}
        finalFocusEl={finalFocusEl}
        // Wide enough at 1280 px for every tab of the Edit dialog to show at once.
        size={editing ? { base: 'md', md: 'xl' } : 'md'}
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
              <FormDialogFields
                form={form}
                onCancel={requestClose}
                onSaved={onSaved}
                onUnsavedChange={unsavedChanged}
                settingsTabs={settingsTabs}
              />
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
      <ConfirmDialog
        overDialog
        open={asking}
        title="Discard unsaved changes?"
        description={`${listOf(unsaved.map(labelOf))} ${unsaved.length === 1 ? 'has' : 'have'} changes that are not saved. Close without saving them, or cancel and save them with the tab’s own Save button.`}
        confirmLabel="Discard changes"
        pending={false}
        error={null}
        onConfirm={() => {
          setAsking(false);
          setUnsaved([]);
          onClose();
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

function FormDialogFields({
  form,
  onCancel,
  onSaved,
  onUnsavedChange,
  settingsTabs,
}: {
  form?: Form | null;
  onCancel: () => void;
  onSaved: (form: Form) => void;
  /** The tabs holding unsaved changes (Edit only) whenever they change; null when unmounted. */
  onUnsavedChange: (tabs: EditTab[] | null) => void;
  settingsTabs: SettingsTabRenderers;
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

  // What each tab's forms report (useUnsavedChanges); the Form tab is this dialog's own form.
  const [reports, setReports] = useState<Partial<Record<EditTab, Record<string, boolean>>>>({});
  const reporters = useMemo(
    () =>
      Object.fromEntries(
        TAB_ORDER.map((tab): [EditTab, UnsavedReport] => [
          tab,
          (key, dirty) =>
            setReports((all) =>
              Boolean(all[tab]?.[key]) === dirty
                ? all
                : { ...all, [tab]: { ...all[tab], [key]: dirty } },
            ),
        ]),
      ) as Record<EditTab, UnsavedReport>,
    [],
  );
  const dirtyTabs = editing
    ? unsavedTabs(TAB_ORDER, { ...reports, form: { dialog: formik.dirty } })
    : [];
  const dirtyKey = dirtyTabs.join();
  useEffect(() => {
    onUnsavedChange(dirtyKey ? (dirtyKey.split(',') as EditTab[]) : []);
  }, [dirtyKey, onUnsavedChange]);
  // Closed (however): nothing is left unsaved.
  useEffect(() => () => onUnsavedChange(null), [onUnsavedChange]);

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
        {editing && (
          <div>
            <Button type="submit" size="sm" colorPalette="teal" loading={formik.isSubmitting}>
              Save form
            </Button>
          </div>
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
            // A section loads its data only when its tab is first opened; it stays mounted after, so
            // switching tabs keeps what was typed.
            lazyMount
          >
            {/* At 390 px the tabs scroll sideways inside their own strip, never the page. */}
            <Tabs.List ref={tabList} overflowX="auto" overflowY="hidden" scrollbarWidth="thin">
              {EDIT_TABS.map((t) => (
                <Tabs.Trigger key={t.value} value={t.value} flexShrink={0} whiteSpace="nowrap">
                  {t.label}
                  {dirtyTabs.includes(t.value) && (
                    <>
                      <Box
                        as="span"
                        w="2"
                        h="2"
                        borderRadius="full"
                        bg="orange.solid"
                        aria-hidden="true"
                        data-testid="unsaved-mark"
                      />
                      <VisuallyHidden>(unsaved changes)</VisuallyHidden>
                    </>
                  )}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="form" pt="4">
              {fields}
            </Tabs.Content>
            {/* Each is its own form, saved by its own button; each reports its unsaved changes. */}
            <Tabs.Content value="webhooks" pt="4">
              <UnsavedChangesScope report={reporters.webhooks}>
                {settingsTabs.renderWebhooks?.(form.id)}
              </UnsavedChangesScope>
            </Tabs.Content>
            <Tabs.Content value="autoresponder" pt="4">
              <UnsavedChangesScope report={reporters.autoresponder}>
                {settingsTabs.renderAutoresponder?.(form)}
              </UnsavedChangesScope>
            </Tabs.Content>
            <Tabs.Content value="captcha" pt="4">
              <UnsavedChangesScope report={reporters.captcha}>
                {settingsTabs.renderCaptcha?.(form)}
              </UnsavedChangesScope>
            </Tabs.Content>
            <Tabs.Content value="retention" pt="4">
              <UnsavedChangesScope report={reporters.retention}>
                {settingsTabs.renderRetention?.(form.id)}
              </UnsavedChangesScope>
            </Tabs.Content>
            <Tabs.Content value="files" pt="4">
              <UnsavedChangesScope report={reporters.files}>
                {settingsTabs.renderFiles?.(form.id)}
              </UnsavedChangesScope>
            </Tabs.Content>
          </Tabs.Root>
        ) : (
          fields
        )}
      </Dialog.Body>
      {editing ? (
        // Every tab saves with its own button; the footer only closes (asking first when a tab
        // holds unsaved changes, which it names).
        <Dialog.Footer key="edit" justifyContent="space-between" gap="3">
          <Text fontSize="sm" color="fg.muted" role="status" data-testid="unsaved-summary">
            {dirtyTabs.length > 0 &&
              `Unsaved changes: ${listOf(dirtyTabs.map(labelOf))}. Each tab saves with its own button.`}
          </Text>
          <Button variant="outline" onClick={onCancel} flexShrink={0}>
            Close
          </Button>
        </Dialog.Footer>
      ) : (
        <Dialog.Footer key="create">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" form={formId} colorPalette="teal" loading={formik.isSubmitting}>
            Create
          </Button>
        </Dialog.Footer>
      )}
    </>
  );
}
