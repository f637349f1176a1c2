// A booking form's settings, new or saved: what it is (name, link, description, duration,
// location), when visitors may book (time zone, weekly hours, date overrides) and the rules of
// booking (buffers, notice, how far ahead, a daily maximum, the note). Yup checks everything the
// database checks; errors show from the first submit on, then follow each key stroke. A link
// another owner has is refused by the database and said at the link's field.
import {
  memo,
  useEffect,
  useId,
  useMemo,
  useState,
  type ChangeEventHandler,
  type FocusEventHandler,
  type ReactNode,
} from 'react';
import { getIn, useFormik } from 'formik';
import {
  Box,
  Field,
  Heading,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { SettingSaveRow } from '../../../components/setting-states';
import { TextField } from '../../../components/text-field';
import type { OverrideValues, RangeValues } from '../availability';
import {
  BOOKING_LIMITS,
  bookingFormSchema,
  describeMinutes,
  proposeSlug,
  timeZoneOptions,
  toBookingFormInput,
  type BookingFormInput,
  type BookingFormValues,
} from '../booking-form-schema';
import { describeBookingError, isSlugTaken, SLUG_TAKEN } from '../booking-errors';
import { publicBookingUrl } from '../embed-code';
import { OverridesEditor, type OverrideErrors } from './overrides-editor';
import { WeeklyEditor } from './weekly-editor';

export interface BookingFormEditorProps {
  initialValues: BookingFormValues;
  /** A saved form (its link is not re-proposed from the name); false for a new one. */
  saved: boolean;
  submitLabel: string;
  /** Stores the values; a refusal is thrown (the database's error). */
  onSubmit: (input: BookingFormInput) => Promise<BookingFormValues | void>;
}

export function BookingFormEditor({
  initialValues,
  saved,
  submitLabel,
  onSubmit,
}: BookingFormEditorProps) {
  // The link follows the name until the owner types one of their own (a saved link never moves).
  const [slugEdited, setSlugEdited] = useState(saved);
  const [takenSlug, setTakenSlug] = useState<string | null>(null);
  const formik = useFormik<BookingFormValues>({
    initialValues,
    validationSchema: bookingFormSchema,
    onSubmit: async (values, helpers) => {
      helpers.setStatus(undefined);
      try {
        const next = await onSubmit(toBookingFormInput(values));
        if (next) helpers.resetForm({ values: next });
      } catch (error) {
        if (isSlugTaken(error)) setTakenSlug(values.slug.trim());
        else helpers.setStatus(describeBookingError(error, 'save the booking form'));
      }
    },
  });
  const { values, dirty } = formik;
  // Closing or reloading the tab with changes not saved asks first (the browser's own question).
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  const shown = (path: string): string | undefined => {
    if (formik.submitCount === 0) return undefined;
    const error: unknown = getIn(formik.errors, path);
    return typeof error === 'string' ? error : undefined;
  };
  const slugError =
    takenSlug !== null && values.slug.trim() === takenSlug ? SLUG_TAKEN : shown('slug');
  const number = (name: keyof BookingFormValues) => formik.getFieldProps(name);
  const zoneId = useId();
  const origin = window.location.origin;
  const minutes = (value: number | '') => (value === '' ? '' : describeMinutes(Number(value)));

  const overrideErrors = (index: number): OverrideErrors => ({
    date: shown(`overrides[${index}].date`),
    ranges: shown(`overrides[${index}].ranges`),
    range: (i, field) => shown(`overrides[${index}].ranges[${i}].${field}`),
  });

  return (
    <form onSubmit={formik.handleSubmit} noValidate aria-label="Booking form settings">
      <Stack gap="8">
        <Part title="Details">
          <TextField
            label="Name"
            placeholder="Intro call"
            maxLength={BOOKING_LIMITS.nameMax}
            autoComplete="off"
            {...formik.getFieldProps('name')}
            onChange={(event) => {
              formik.handleChange(event);
              if (!slugEdited) void formik.setFieldValue('slug', proposeSlug(event.target.value));
            }}
            error={shown('name')}
            required
          />
          <TextField
            label="Link"
            placeholder="intro-call"
            maxLength={BOOKING_LIMITS.slugMax}
            autoComplete="off"
            spellCheck={false}
            {...formik.getFieldProps('slug')}
            onChange={(event) => {
              setSlugEdited(true);
              void formik.setFieldValue(
                'slug',
                event.target.value.toLowerCase().replace(/\s+/g, '-'),
              );
            }}
            hint={
              <>
                Visitors book at{' '}
                <Text as="span" fontWeight="medium" overflowWrap="anywhere">
                  {values.slug.trim()
                    ? publicBookingUrl(origin, values.slug.trim())
                    : `${publicBookingUrl(origin, '')}…`}
                </Text>
                {saved && ' — changing it stops the old link from working.'}
              </>
            }
            error={slugError}
            required
          />
          <Field.Root invalid={Boolean(shown('description'))}>
            <Field.Label>Description</Field.Label>
            <Textarea
              {...formik.getFieldProps('description')}
              rows={3}
              maxLength={BOOKING_LIMITS.descriptionMax}
              placeholder="What the appointment is for, and what to prepare."
            />
            <Field.HelperText>Shown on the booking page.</Field.HelperText>
            <Field.ErrorText>{shown('description')}</Field.ErrorText>
          </Field.Root>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <TextField
              label="Duration (minutes)"
              type="number"
              inputMode="numeric"
              min={BOOKING_LIMITS.duration.min}
              max={BOOKING_LIMITS.duration.max}
              {...number('duration_minutes')}
              hint={`From ${BOOKING_LIMITS.duration.min} to ${BOOKING_LIMITS.duration.max}.`}
              error={shown('duration_minutes')}
              required
            />
            <TextField
              label="Location or meeting link"
              placeholder="https://meet.example.com/ada or 12 Main St"
              maxLength={BOOKING_LIMITS.locationMax}
              autoComplete="off"
              {...formik.getFieldProps('location')}
              hint="Sent in the confirmation e-mail and calendar invitation."
              error={shown('location')}
            />
          </SimpleGrid>
        </Part>

        <Part
          title="Weekly hours"
          description="The times visitors may book, in the time zone below. Times as HH:MM; 24:00 is the end of the day."
        >
          <Field.Root invalid={Boolean(shown('time_zone'))} maxW="sm">
            <Field.Label htmlFor={zoneId}>Time zone</Field.Label>
            <TimeZoneSelect
              id={zoneId}
              name="time_zone"
              value={values.time_zone}
              onChange={formik.handleChange}
              onBlur={formik.handleBlur}
            />
            <Field.ErrorText>{shown('time_zone')}</Field.ErrorText>
          </Field.Root>
          <WeeklyEditor
            weekly={values.weekly}
            error={(day, index, field) => shown(`weekly[${day}][${index}].${field}`)}
            onChange={(weekly: RangeValues[][]) => void formik.setFieldValue('weekly', weekly)}
          />
        </Part>

        <Part
          title="Date overrides"
          description="Days off, or other hours on a date. An override replaces that date’s weekly hours."
        >
          <OverridesEditor
            overrides={values.overrides}
            errors={overrideErrors}
            onChange={(overrides: OverrideValues[]) =>
              void formik.setFieldValue('overrides', overrides)
            }
          />
          {shown('overrides') && (
            <Text fontSize="sm" color="fg.error">
              {shown('overrides')}
            </Text>
          )}
        </Part>

        <Part title="Booking rules">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <TextField
              label="Buffer before (minutes)"
              type="number"
              inputMode="numeric"
              min={BOOKING_LIMITS.buffer.min}
              max={BOOKING_LIMITS.buffer.max}
              {...number('buffer_before_minutes')}
              hint="Free time kept before each booking."
              error={shown('buffer_before_minutes')}
              required
            />
            <TextField
              label="Buffer after (minutes)"
              type="number"
              inputMode="numeric"
              min={BOOKING_LIMITS.buffer.min}
              max={BOOKING_LIMITS.buffer.max}
              {...number('buffer_after_minutes')}
              hint="Free time kept after each booking."
              error={shown('buffer_after_minutes')}
              required
            />
            <TextField
              label="Minimum notice (minutes)"
              type="number"
              inputMode="numeric"
              min={BOOKING_LIMITS.minNotice.min}
              max={BOOKING_LIMITS.minNotice.max}
              {...number('min_notice_minutes')}
              hint={
                values.min_notice_minutes === ''
                  ? 'How soon a visitor may book.'
                  : `Bookings start at least ${minutes(values.min_notice_minutes)} from now.`
              }
              error={shown('min_notice_minutes')}
              required
            />
            <TextField
              label="Book up to (days ahead)"
              type="number"
              inputMode="numeric"
              min={BOOKING_LIMITS.maxDaysAhead.min}
              max={BOOKING_LIMITS.maxDaysAhead.max}
              {...number('max_days_ahead')}
              hint={`From ${BOOKING_LIMITS.maxDaysAhead.min} to ${BOOKING_LIMITS.maxDaysAhead.max} days.`}
              error={shown('max_days_ahead')}
              required
            />
            <TextField
              label="Daily maximum (optional)"
              type="number"
              inputMode="numeric"
              min={BOOKING_LIMITS.dailyMax.min}
              max={BOOKING_LIMITS.dailyMax.max}
              {...number('daily_max')}
              hint="At most this many bookings a day through this form, in its time zone; empty for no limit."
              error={shown('daily_max')}
            />
          </SimpleGrid>
          <Field.Root>
            <Switch.Root
              name="ask_note"
              checked={values.ask_note}
              onCheckedChange={(details) => void formik.setFieldValue('ask_note', details.checked)}
              colorPalette="teal"
            >
              <Switch.HiddenInput />
              <Switch.Control>
                <Switch.Thumb />
              </Switch.Control>
              <Switch.Label>Ask for a note</Switch.Label>
            </Switch.Root>
            <Field.HelperText>
              Visitors may add a few words about what they would like to talk about.
            </Field.HelperText>
          </Field.Root>
        </Part>

        {formik.submitCount > 0 && !formik.isValid && (
          <Text role="alert" color="fg.error" fontSize="sm">
            Some settings need a change: see the messages above.
          </Text>
        )}
        <SettingSaveRow error={formik.status} saving={formik.isSubmitting} label={submitLabel} />
      </Stack>
    </form>
  );
}

function Part({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Box as="section" aria-labelledby={headingId} minW="0">
      <Heading as="h2" size="lg" id={headingId} mb={description ? '1' : '3'}>
        {title}
      </Heading>
      {description && (
        <Text color="fg.muted" fontSize="sm" mb="3">
          {description}
        </Text>
      )}
      <Stack gap="4">{children}</Stack>
    </Box>
  );
}

interface TimeZoneSelectProps {
  id: string;
  name: string;
  value: string;
  onChange: ChangeEventHandler<HTMLSelectElement>;
  onBlur: FocusEventHandler<HTMLSelectElement>;
}

/**
 * The time zone list, some 420 options: drawn again only when its own value changes, not on every
 * key stroke elsewhere in the form (Formik's handlers keep their identity between renders).
 */
const TimeZoneSelect = memo(function TimeZoneSelect({ id, value, ...field }: TimeZoneSelectProps) {
  const zones = useMemo(() => timeZoneOptions(value), [value]);
  return (
    <NativeSelect.Root size="sm">
      <NativeSelect.Field id={id} value={value} {...field}>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replace(/_/g, ' ')}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
});
