// /dashboard/booking/new and /dashboard/booking/:id: a booking form's editor. New: the settings
// with the usual defaults, and Create leads to the form's own page. Saved: where visitors book
// (link and embed code), its bookings, its settings, its spam protection, and deleting it.
import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Container, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { ArrowLeftIcon } from 'lucide-react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SettingLoadError, SettingLoading } from '../../components/setting-states';
import { notify } from '../../components/toaster';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { visibleText } from '../../lib/visible-text';
import { useCreateBookingForm } from './api/create-booking-form';
import { useDeleteBookingForm } from './api/delete-booking-form';
import { useBookingForm } from './api/get-booking-form';
import { useUpdateBookingForm } from './api/update-booking-form';
import { describeBookingError } from './booking-errors';
import {
  formValues,
  newFormValues,
  type BookingFormInput,
  type BookingFormRow,
} from './booking-form-schema';
import { BookingFormEditor } from './components/booking-form-editor';
import { BookingsList } from './components/bookings-list';
import { CaptchaSettings } from './components/captcha-settings';
import { EmbedSection } from './components/embed-section';

const NEW = 'new';

export function BookingFormPage() {
  const { id = NEW } = useParams<{ id: string }>();
  return (
    <Container maxW="4xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Link asChild color="fg.muted" fontSize="sm" mb="4">
        <RouterLink to={paths.dashboardBooking}>
          <ArrowLeftIcon aria-hidden size="14" /> Your booking forms
        </RouterLink>
      </Link>
      {id === NEW ? <NewBookingForm /> : <SavedBookingForm key={id} id={id} />}
    </Container>
  );
}

function NewBookingForm() {
  useDocumentTitle('New booking form');
  const navigate = useNavigate();
  const create = useCreateBookingForm();
  const initialValues = useMemo(() => newFormValues(), []);

  async function submit(input: BookingFormInput) {
    const form = await create.mutateAsync(input);
    notify(
      'success',
      'Booking form created',
      `Share its link, or embed it on your site, to take bookings.`,
    );
    navigate(paths.dashboardBookingItem(form.id));
  }

  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          New booking form
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          A link where visitors pick a time with you.
        </Text>
      </Stack>
      <BookingFormEditor
        initialValues={initialValues}
        saved={false}
        submitLabel="Create booking form"
        onSubmit={submit}
      />
    </Stack>
  );
}

function SavedBookingForm({ id }: { id: string }) {
  const form = useBookingForm(id);
  useDocumentTitle(
    form.data ? visibleText(form.data.name) : form.isPending ? 'Booking form' : 'Not found',
  );

  if (form.isPending) return <SettingLoading>Loading the booking form…</SettingLoading>;
  if (form.isError)
    return (
      <SettingLoadError
        title="The booking form could not be loaded."
        onRetry={() => void form.refetch()}
      />
    );
  if (!form.data)
    return (
      <Stack gap="3" align="flex-start">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          Booking form not found
        </Heading>
        <Text color="fg.muted">
          There is no booking form at this address. It may have been deleted.
        </Text>
        <Button asChild colorPalette="teal" variant="outline">
          <RouterLink to={paths.dashboardBooking}>Back to your booking forms</RouterLink>
        </Button>
      </Stack>
    );
  return <BookingFormDetails form={form.data} />;
}

function BookingFormDetails({ form }: { form: BookingFormRow }) {
  const navigate = useNavigate();
  const update = useUpdateBookingForm();
  const remove = useDeleteBookingForm();
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  // The values the editor started from: the form as loaded, not as every refetch reports it, so
  // a background read never resets what is being typed.
  const [initialValues] = useState(() => formValues(form));
  const forms = useMemo(
    () => new Map([[form.id, { name: form.name, time_zone: form.time_zone }]]),
    [form.id, form.name, form.time_zone],
  );
  const name = visibleText(form.name);

  async function save(input: BookingFormInput) {
    const saved = await update.mutateAsync({ id: form.id, ...input });
    notify('success', 'Booking form saved', `“${visibleText(saved.name)}” was saved.`);
    return formValues(saved);
  }

  async function confirmDelete() {
    setDeleteError(null);
    try {
      await remove.mutateAsync(form.id);
      notify('success', 'Booking form deleted', `“${name}” and its bookings were deleted.`);
      navigate(paths.dashboardBooking);
    } catch (error) {
      setDeleteError(describeBookingError(error, 'delete the booking form'));
    }
  }

  return (
    <Stack gap="10">
      <Stack gap="1">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em" overflowWrap="anywhere">
          {name}
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          Its settings, where visitors book, and its appointments.
        </Text>
      </Stack>
      <EmbedSection slug={form.slug} name={form.name} />
      <BookingsList formId={form.id} forms={forms} />
      <BookingFormEditor
        initialValues={initialValues}
        saved
        submitLabel="Save changes"
        onSubmit={save}
      />
      <CaptchaSettings form={form} />
      <Box as="section" aria-labelledby="delete-booking-form" borderTopWidth="1px" pt="6">
        <Heading as="h2" size="md" id="delete-booking-form" mb="1">
          Delete this booking form
        </Heading>
        <Text fontSize="sm" color="fg.muted" mb="3">
          Its link stops working and its bookings are deleted with it. To tell visitors, cancel
          their upcoming bookings first.
        </Text>
        <Button
          colorPalette="red"
          variant="outline"
          size="sm"
          onClick={() => {
            setDeleteError(null);
            setDeleting(true);
          }}
        >
          Delete booking form
        </Button>
      </Box>
      <ConfirmDialog
        open={deleting}
        title={`Delete “${name}”?`}
        description="Its link stops working at once and all its bookings are deleted. Visitors are not told. This cannot be undone."
        confirmLabel="Delete"
        pending={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(false)}
      />
    </Stack>
  );
}
