// A booking form's spam protection: off, or a CAPTCHA check (Turnstile, hCaptcha or reCAPTCHA)
// every visitor passes before booking. The keys come from the provider; the secret is stored apart
// from the form and never shown again, so an empty secret field keeps the saved one.
import { useId } from 'react';
import { useFormik } from 'formik';
import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import {
  CaptchaKeyFields,
  captchaKeysSchema,
  type CaptchaKeyValues,
} from '../../../components/captcha-keys';
import { SettingSaveRow } from '../../../components/setting-states';
import { notify } from '../../../components/toaster';
import { CAPTCHA_WIDGETS } from '../../../config/captcha';
import { useSetBookingCaptcha } from '../api/set-booking-captcha';
import type { BookingFormRow } from '../booking-form-schema';

/** What a failed save says; the database's own sentences (22023) as they are. */
function describeCaptchaError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === '22023' && typeof message === 'string') return message;
  if (code === 'PT404') return 'This booking form no longer exists. Reload the page.';
  if (code === '42501') return 'You are not allowed to change this booking form.';
  return 'Could not save the spam protection. Check your connection and try again.';
}

export function CaptchaSettings({
  form,
}: {
  form: Pick<BookingFormRow, 'id' | 'captcha_provider' | 'captcha_site_key'>;
}) {
  const headingId = useId();
  const providerId = useId();
  const save = useSetBookingCaptcha();
  const saved = form.captcha_provider;
  const formik = useFormik<CaptchaKeyValues>({
    initialValues: { provider: saved ?? '', siteKey: form.captcha_site_key ?? '', secret: '' },
    validationSchema: captchaKeysSchema(saved),
    onSubmit: async (values, helpers) => {
      helpers.setStatus(undefined);
      try {
        const result = await save.mutateAsync({
          formId: form.id,
          provider: values.provider || null,
          siteKey: values.siteKey,
          secret: values.secret,
        });
        helpers.resetForm({
          values: {
            provider: result.captcha_provider ?? '',
            siteKey: result.captcha_site_key ?? '',
            secret: '',
          },
        });
        notify(
          'success',
          'Spam protection saved',
          result.captcha_provider
            ? `Visitors pass a ${CAPTCHA_WIDGETS[result.captcha_provider].label} check to book.`
            : 'Visitors book without a CAPTCHA check.',
        );
      } catch (error) {
        helpers.setStatus(describeCaptchaError(error));
      }
    },
  });

  return (
    <Box as="section" aria-labelledby={headingId} minW="0">
      <Heading as="h2" size="lg" id={headingId} mb="1">
        Spam protection
      </Heading>
      <Text color="fg.muted" fontSize="sm" mb="3">
        {saved
          ? `On: visitors pass a ${CAPTCHA_WIDGETS[saved].label} check to book. Secret key set.`
          : 'Off: visitors book without a check; bookings are still rate-limited. Add a CAPTCHA if bots book.'}
      </Text>
      <form onSubmit={formik.handleSubmit} noValidate aria-label="Spam protection">
        <Stack gap="4" maxW="xl">
          <CaptchaKeyFields
            formik={formik}
            saved={saved}
            providerId={providerId}
            providerLabel="CAPTCHA"
            origin={null}
            siteKeyHint="Public: it goes into your booking page."
            checks="each booking"
          />
          <SettingSaveRow
            error={formik.status}
            saving={formik.isSubmitting}
            label="Save spam protection"
          />
        </Stack>
      </form>
    </Box>
  );
}
