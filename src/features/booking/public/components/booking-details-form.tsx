// The visitor's details for the picked slot, and the answer to "Book": a refused slot offers the
// next free ones, a refused field says what to change, a limit says how long to wait, and a
// failure to reach the service says the booking is not made yet.
import { useRef, useState } from 'react';
import { useFormik } from 'formik';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Field, HStack, Stack, Text, Textarea, Wrap } from '@chakra-ui/react';
import { TextField } from '../../../../components/text-field';
import { useBook, type BookOutcome } from '../api/book';
import { bookingPublicKeys } from '../api/get-booking-page';
import { BOOKING_LIMITS, bookingDetailsSchema, type BookingDetails } from '../booking-schema';
import type { PublicBookingForm } from '../booking-types';
import { formatWait } from '../function-answer';
import { formatSpan, formatTime, formatDate } from '../zoned-time';
import { CaptchaWidget } from './captcha-widget';

type Booked = Extract<BookOutcome, { kind: 'booked' }>;

/** A refusal shown above the button: what happened and what to do. */
interface Problem {
  title: string;
  description?: string;
  /** Free starts to switch to (someone took the picked one). */
  next?: string[];
}

export function BookingDetailsForm({
  form,
  start,
  zone,
  onStartChange,
  onBack,
  onBooked,
}: {
  form: PublicBookingForm;
  start: string;
  zone: string;
  onStartChange: (start: string) => void;
  onBack: () => void;
  onBooked: (outcome: Booked, email: string) => void;
}) {
  const book = useBook();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [captchaReset, setCaptchaReset] = useState(0);
  const problemRef = useRef<HTMLDivElement>(null);
  const captcha =
    form.captcha_provider && form.captcha_site_key
      ? { provider: form.captcha_provider, siteKey: form.captcha_site_key }
      : null;
  const end = new Date(Date.parse(start) + form.duration_minutes * 60_000).toISOString();

  const show = (next: Problem) => {
    setProblem(next);
    // The alert is announced (role=alert); the focus moves to it so a keyboard user is there too.
    requestAnimationFrame(() => problemRef.current?.focus());
  };

  const formik = useFormik<BookingDetails>({
    initialValues: { name: '', email: '', note: '', website: '' },
    validationSchema: bookingDetailsSchema,
    onSubmit: async (values, helpers) => {
      setProblem(null);
      if (captcha && !captchaToken) {
        show({ title: 'Complete the spam check above the button first.' });
        return;
      }
      let outcome: BookOutcome;
      try {
        outcome = await book.mutateAsync({
          slug: form.slug,
          start,
          name: values.name.trim(),
          email: values.email.trim(),
          note: form.ask_note ? values.note?.trim() : undefined,
          timeZone: zone,
          website: values.website ?? '',
          captchaToken: captchaToken ?? undefined,
        });
      } catch {
        outcome = { kind: 'unavailable', retryAfter: null };
      }
      // A CAPTCHA token is good for one request, whatever its answer.
      if (captcha) setCaptchaReset((n) => n + 1);
      switch (outcome.kind) {
        case 'booked':
          void queryClient.invalidateQueries({ queryKey: bookingPublicKeys.allSlots });
          onBooked(outcome, values.email.trim());
          return;
        case 'slot_taken':
          void queryClient.invalidateQueries({ queryKey: bookingPublicKeys.allSlots });
          show({
            title: 'Someone just booked this time.',
            description: outcome.next.length
              ? 'These times are still free. Pick one and press Book again, or go back to the calendar.'
              : 'Go back to the calendar and pick another time.',
            next: outcome.next,
          });
          return;
        case 'invalid':
          if (outcome.field === 'name' || outcome.field === 'email' || outcome.field === 'note') {
            helpers.setFieldTouched(outcome.field, true, false);
            helpers.setFieldError(outcome.field, outcome.message || 'Check this field.');
            show({ title: 'Check the field marked below.', description: outcome.message });
          } else {
            show({
              title: 'This time cannot be booked.',
              description: outcome.message || 'Go back to the calendar and pick another time.',
            });
          }
          return;
        case 'captcha':
          show({
            title: 'The spam check did not pass.',
            description: 'Solve it again, then press Book.',
          });
          return;
        case 'rate_limited':
          show({
            title: outcome.account
              ? 'This booking page takes no more bookings for now.'
              : 'Too many booking requests from your connection.',
            description: outcome.retryAfter
              ? `Try again in ${formatWait(outcome.retryAfter)}.`
              : 'Try again later.',
          });
          return;
        case 'not_found':
          show({ title: 'This booking link no longer exists.' });
          return;
        case 'misconfigured':
          show({
            title: 'This booking page cannot take bookings right now.',
            description:
              outcome.message ||
              'Its spam check is not set up correctly; let the host know, or try again later.',
          });
          return;
        case 'unavailable':
          show({
            title: 'Your booking is not made yet: the booking service could not be reached.',
            description: outcome.retryAfter
              ? `Try again in ${formatWait(outcome.retryAfter)}. Your details stay filled in.`
              : 'Check your connection and press Book again. Your details stay filled in.',
          });
          return;
      }
    },
  });

  const error = (field: keyof BookingDetails) =>
    (formik.touched[field] || formik.submitCount > 0) && formik.errors[field]
      ? formik.errors[field]
      : undefined;

  return (
    <Stack gap="5">
      <Box borderWidth="1px" rounded="lg" p="4" bg="bg.subtle">
        <Text fontWeight="semibold">{formatSpan(start, end, zone)}</Text>
        <Button variant="plain" colorPalette="teal" px="0" h="auto" mt="1" onClick={onBack}>
          Change the time
        </Button>
      </Box>
      <form onSubmit={formik.handleSubmit} noValidate aria-label="Your details">
        <Stack gap="4">
          <TextField
            label="Your name"
            name="name"
            autoComplete="name"
            required
            maxLength={BOOKING_LIMITS.name}
            value={formik.values.name}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={error('name')}
          />
          <TextField
            label="Your e-mail"
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            maxLength={BOOKING_LIMITS.email}
            value={formik.values.email}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={error('email')}
            hint="The confirmation and calendar invitation go here."
          />
          {form.ask_note && (
            <Field.Root invalid={Boolean(error('note'))}>
              <Field.Label>
                Note{' '}
                <Text as="span" color="fg.muted" fontWeight="normal">
                  (optional)
                </Text>
              </Field.Label>
              <Textarea
                name="note"
                rows={3}
                maxLength={BOOKING_LIMITS.note}
                value={formik.values.note}
                onChange={formik.handleChange}
                onBlur={formik.handleBlur}
              />
              <Field.HelperText>Anything the host should know beforehand.</Field.HelperText>
              <Field.ErrorText>{error('note')}</Field.ErrorText>
            </Field.Root>
          )}
          {/* Spam trap: hidden from people and assistive technology, filled in by bots. */}
          <div
            aria-hidden="true"
            style={{
              position: 'absolute',
              left: '-10000px',
              width: '1px',
              height: '1px',
              overflow: 'hidden',
            }}
          >
            <label htmlFor="booking-website">Leave this field empty</label>
            <input
              id="booking-website"
              type="text"
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={formik.values.website}
              onChange={formik.handleChange}
            />
          </div>
          {captcha && (
            <CaptchaWidget
              provider={captcha.provider}
              siteKey={captcha.siteKey}
              onToken={setCaptchaToken}
              resetKey={captchaReset}
            />
          )}
          {problem && (
            <Alert.Root status="error" role="alert" ref={problemRef} tabIndex={-1}>
              <Alert.Indicator />
              <Alert.Content gap="2">
                <Alert.Title>{problem.title}</Alert.Title>
                {problem.description && (
                  <Alert.Description>{problem.description}</Alert.Description>
                )}
                {problem.next && problem.next.length > 0 && (
                  <Wrap gap="2" role="group" aria-label="Free times">
                    {problem.next.map((next) => (
                      <Button
                        key={next}
                        size="sm"
                        variant="outline"
                        colorPalette="teal"
                        bg="bg"
                        onClick={() => {
                          onStartChange(next);
                          setProblem(null);
                        }}
                      >
                        {formatDate(next, zone) === formatDate(start, zone)
                          ? formatTime(next, zone)
                          : `${formatDate(next, zone)}, ${formatTime(next, zone)}`}
                      </Button>
                    ))}
                  </Wrap>
                )}
              </Alert.Content>
            </Alert.Root>
          )}
          <HStack gap="3" flexWrap="wrap">
            <Button
              type="submit"
              colorPalette="teal"
              loading={formik.isSubmitting}
              loadingText="Booking…"
              flex={{ base: '1', sm: 'initial' }}
            >
              Book
            </Button>
            <Button variant="ghost" onClick={onBack} disabled={formik.isSubmitting}>
              Back
            </Button>
          </HStack>
        </Stack>
      </form>
    </Stack>
  );
}
