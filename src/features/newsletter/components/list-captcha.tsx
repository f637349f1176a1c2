// A list's signup CAPTCHA: off, or Cloudflare Turnstile, hCaptcha or reCAPTCHA v2 (checkbox) with
// the provider's site key (public: it goes into the signup form's code) and secret key (sent once,
// kept on the server and never shown again, so an empty field keeps the stored one). Saved on its
// own through set_list_captcha(); the database's refusals are shown as it words them.
import { useId } from 'react';
import { useFormik } from 'formik';
import { Alert, Badge, Heading, Link, Stack, Text } from '@chakra-ui/react';
import {
  CaptchaKeyFields,
  captchaKeysSchema,
  type CaptchaKeyValues,
} from '../../../components/captcha-keys';
import { SettingSaveRow } from '../../../components/setting-states';
import { notify } from '../../../components/toaster';
import { CAPTCHA_WIDGETS } from '../../../config/captcha';
import { paths } from '../../../config/paths';
import { useSetListCaptcha } from '../api/set-list-captcha';
import type { NewsletterList } from '../newsletter-types';

/** A failed save in words for the owner: the database's own sentences (22023) as they are. */
function describeListCaptchaError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === '22023' && typeof message === 'string') return message;
  if (code === 'PT404' || code === 'PGRST116')
    return 'This list no longer exists. Reload the page.';
  if (code === '42501') return 'You are not allowed to change this list’s CAPTCHA.';
  return 'Could not save the CAPTCHA. Check your connection and try again.';
}

export function ListCaptcha({
  list,
}: {
  list: Pick<NewsletterList, 'id' | 'allowed_origin' | 'captcha_provider' | 'captcha_site_key'>;
}) {
  const headingId = useId();
  const providerId = useId();
  const save = useSetListCaptcha();
  const saved = list.captcha_provider;

  const formik = useFormik<CaptchaKeyValues>({
    initialValues: {
      provider: saved ?? '',
      siteKey: saved ? (list.captcha_site_key ?? '') : '',
      secret: '',
    },
    validationSchema: captchaKeysSchema(saved),
    onSubmit: async (values, helpers) => {
      helpers.setStatus(undefined);
      try {
        const result = await save.mutateAsync({
          listId: list.id,
          provider: values.provider || null,
          siteKey: values.siteKey,
          secret: values.secret,
        });
        // The secret field empties: what was typed is stored and never shown again.
        helpers.resetForm({
          values: {
            provider: result.captcha_provider ?? '',
            siteKey: result.captcha_site_key ?? '',
            secret: '',
          },
        });
        notify(
          'success',
          'CAPTCHA saved',
          result.captcha_provider
            ? `Copy the signup form’s code again: it now includes the ${CAPTCHA_WIDGETS[result.captcha_provider].label} widget.`
            : 'Signups no longer need a CAPTCHA; you can remove the widget from your page.',
        );
      } catch (error) {
        const message = describeListCaptchaError(error);
        helpers.setStatus(message);
        notify('error', 'CAPTCHA not saved', message);
      }
    },
  });
  const provider = formik.values.provider;

  return (
    <Stack as="section" aria-labelledby={headingId} gap="3">
      <Heading as="h3" id={headingId} size="sm">
        CAPTCHA
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Optional: visitors solve a challenge, and tinyback checks it with the provider before it
        takes the signup.{' '}
        <Link
          href={`${paths.docs}#newsletter`}
          target="_blank"
          rel="noopener"
          colorPalette="teal"
          variant="underline"
        >
          About the signup form
        </Link>
      </Text>
      <Stack direction="row" align="center" gap="2" wrap="wrap">
        <Badge colorPalette={saved ? 'green' : 'gray'} variant="subtle">
          {saved ? 'On' : 'Off'}
        </Badge>
        <Text fontSize="sm" data-testid="list-captcha-state">
          {saved
            ? `Every signup needs a ${CAPTCHA_WIDGETS[saved].label} check. Secret key set.`
            : 'Signups are checked by the spam trap and rate limits only.'}
        </Text>
      </Stack>

      <form onSubmit={formik.handleSubmit} noValidate aria-label="Signup CAPTCHA">
        <Stack gap="3" borderWidth="1px" borderRadius="md" p="3">
          <CaptchaKeyFields
            formik={formik}
            saved={saved}
            providerId={providerId}
            origin={list.allowed_origin}
            siteKeyHint="Public: it goes into your signup form’s code."
            checks="each signup"
          />

          {provider !== '' && provider !== saved && (
            <Alert.Root status="warning" data-testid="list-captcha-code-warning">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>
                  Update your page: signups without the {CAPTCHA_WIDGETS[provider].label} widget
                  will be refused
                </Alert.Title>
                <Alert.Description>
                  Once you save, replace the signup form you pasted before with the new code above.
                  Until then, signups from the old form are refused.
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          <SettingSaveRow error={formik.status} saving={formik.isSubmitting} label="Save CAPTCHA" />
        </Stack>
      </form>
    </Stack>
  );
}
