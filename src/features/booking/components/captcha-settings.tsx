// A booking form's spam protection: off, or a CAPTCHA check (Turnstile, hCaptcha or reCAPTCHA)
// every visitor passes before booking. The keys come from the provider; the secret is stored apart
// from the form and never shown again, so an empty secret field keeps the saved one.
import { useId } from 'react';
import { useFormik } from 'formik';
import * as yup from 'yup';
import { Box, Field, Heading, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { SettingSaveRow } from '../../../components/setting-states';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { CAPTCHA_PROVIDERS, CAPTCHA_WIDGETS } from '../../../config/captcha';
import type { CaptchaProvider } from '../../../lib/database';
import { useSetBookingCaptcha } from '../api/set-booking-captcha';
import type { BookingFormRow } from '../booking-form-schema';

/** As set_booking_captcha() checks them. */
const SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
const SECRET_PATTERN = /^[!-~]{1,500}$/;

interface CaptchaValues {
  provider: CaptchaProvider | '';
  siteKey: string;
  secret: string;
}

function captchaSchema(saved: CaptchaProvider | null) {
  return yup.object({
    provider: yup.string(),
    siteKey: yup.string().when('provider', {
      is: (provider: string | undefined) => Boolean(provider),
      then: (schema) =>
        schema
          .trim()
          .required('Enter the site key.')
          .matches(SITE_KEY_PATTERN, 'Enter the site key exactly as the provider shows it.'),
    }),
    secret: yup.string().when('provider', {
      is: (provider: string | undefined) => Boolean(provider),
      then: (schema) =>
        schema
          .trim()
          .test('needed', 'Enter the secret key.', function (secret) {
            // A new provider needs its own secret; the same one keeps the saved secret.
            return Boolean(secret) || (this.parent as CaptchaValues).provider === saved;
          })
          .test(
            'format',
            'Enter the secret key exactly as the provider shows it.',
            (secret) => !secret || SECRET_PATTERN.test(secret),
          ),
    }),
  });
}

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
  const formik = useFormik<CaptchaValues>({
    initialValues: { provider: saved ?? '', siteKey: form.captcha_site_key ?? '', secret: '' },
    validationSchema: captchaSchema(saved),
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
  const shown = (field: keyof CaptchaValues) =>
    formik.submitCount > 0 ? formik.errors[field] : undefined;
  const provider = formik.values.provider || null;

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
          <Field.Root>
            <Field.Label htmlFor={providerId}>CAPTCHA</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field id={providerId} {...formik.getFieldProps('provider')}>
                <option value="">Off</option>
                {CAPTCHA_PROVIDERS.map((name) => (
                  <option key={name} value={name}>
                    {CAPTCHA_WIDGETS[name].label}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            {provider && (
              <Field.HelperText>
                Create the keys for your site’s domain at{' '}
                <Link
                  href={CAPTCHA_WIDGETS[provider].keysUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  color="teal.700"
                >
                  {CAPTCHA_WIDGETS[provider].label}
                </Link>
                .
              </Field.HelperText>
            )}
          </Field.Root>
          {provider && (
            <>
              <TextField
                label="Site key"
                autoComplete="off"
                spellCheck={false}
                {...formik.getFieldProps('siteKey')}
                error={shown('siteKey')}
                required
              />
              <TextField
                label="Secret key"
                type="password"
                autoComplete="off"
                spellCheck={false}
                placeholder={provider === saved ? 'Saved — leave empty to keep it' : undefined}
                {...formik.getFieldProps('secret')}
                hint="Stored apart from the form and never shown again."
                error={shown('secret')}
                required={provider !== saved}
              />
            </>
          )}
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
