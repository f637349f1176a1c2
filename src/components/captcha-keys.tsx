// The CAPTCHA keys of anything that takes visitors' posts (a form, a booking page, a list's signup
// form): the provider (off, Cloudflare Turnstile, hCaptcha or reCAPTCHA v2), its site key (public,
// it goes into the page) and its secret key (sent once, kept on the server and never shown again,
// so an empty field keeps the stored one for the same provider). Each setting keeps its own
// heading, state, save and warnings; the fields, their checks and the provider's links are these.
import type { FormikProps } from 'formik';
import * as yup from 'yup';
import { Field, Link, NativeSelect, Text } from '@chakra-ui/react';
import { CAPTCHA_PROVIDERS, CAPTCHA_WIDGETS } from '../config/captcha';
import type { CaptchaProvider } from '../lib/database';
import { TextField } from './text-field';

/** As the database's set_*_captcha() functions check them. */
export const SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
export const SECRET_PATTERN = /^[!-~]{1,500}$/;

export interface CaptchaKeyValues {
  /** '' is off. */
  provider: CaptchaProvider | '';
  siteKey: string;
  secret: string;
}

/** A secret is needed unless one is stored for this very provider (a provider is only set with one). */
export function captchaKeysSchema(saved: CaptchaProvider | null) {
  return yup.object({
    provider: yup.string(),
    siteKey: yup
      .string()
      .trim()
      .when('provider', {
        // Formik validates '' as undefined: "off" is any falsy value.
        is: (p?: string) => Boolean(p),
        then: (s) =>
          s
            .required('Enter the site key.')
            .matches(SITE_KEY_PATTERN, 'Enter the site key exactly as the provider shows it.'),
      }),
    secret: yup
      .string()
      .trim()
      .matches(SECRET_PATTERN, {
        message: 'Enter the secret key exactly as the provider shows it.',
        excludeEmptyString: true,
      })
      .when('provider', {
        is: (p?: string) => Boolean(p) && p !== saved,
        then: (s) => s.required('Enter the secret key.'),
      }),
  });
}

export function CaptchaKeyFields({
  formik,
  saved,
  providerId,
  providerLabel = 'Provider',
  origin,
  siteKeyHint,
  checks,
}: {
  formik: FormikProps<CaptchaKeyValues>;
  /** The provider stored now (its secret is kept when the field stays empty). */
  saved: CaptchaProvider | null;
  providerId: string;
  providerLabel?: string;
  /** The site the keys are made for, named beside the provider's link; null: "your site". */
  origin: string | null;
  /** Where the public site key goes, e.g. "Public: it goes into your embed code." */
  siteKeyHint: string;
  /** What the secret checks, e.g. "each post". */
  checks: string;
}) {
  const errorOf = (name: 'siteKey' | 'secret') =>
    formik.touched[name] || formik.submitCount > 0 ? formik.errors[name] : undefined;
  const provider = formik.values.provider;
  const secretKept = provider !== '' && provider === saved;

  return (
    <>
      <Field.Root>
        <Field.Label htmlFor={providerId}>{providerLabel}</Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            id={providerId}
            {...formik.getFieldProps('provider')}
            onChange={(event) => {
              formik.setStatus(undefined);
              formik.handleChange(event);
            }}
          >
            <option value="">Off</option>
            {CAPTCHA_PROVIDERS.map((name) => (
              <option key={name} value={name}>
                {CAPTCHA_WIDGETS[name].label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Field.HelperText>
          reCAPTCHA v3 (invisible, scored) is not supported: use v2 checkbox keys.
        </Field.HelperText>
      </Field.Root>

      {provider !== '' && (
        <>
          <Text fontSize="sm">
            Create the keys for{' '}
            {origin ? (
              <Text as="span" fontWeight="medium" wordBreak="break-all">
                {origin}
              </Text>
            ) : (
              'your site’s domain'
            )}{' '}
            in{' '}
            <Link
              href={CAPTCHA_WIDGETS[provider].keysUrl}
              target="_blank"
              rel="noopener noreferrer"
              colorPalette="teal"
              variant="underline"
            >
              {CAPTCHA_WIDGETS[provider].label}’s dashboard
            </Link>
            .
          </Text>
          <TextField
            label="Site key"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            hint={siteKeyHint}
            {...formik.getFieldProps('siteKey')}
            error={errorOf('siteKey')}
            required
          />
          <TextField
            label="Secret key"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            maxLength={500}
            placeholder={secretKept ? 'Secret key set' : undefined}
            hint={
              secretKept
                ? 'A secret key is set. Leave this empty to keep it, or enter a new one; it is never shown again.'
                : `Stored on the server only, used to check ${checks}; it is never shown again.`
            }
            {...formik.getFieldProps('secret')}
            error={errorOf('secret')}
            required={!secretKept}
          />
        </>
      )}
    </>
  );
}
