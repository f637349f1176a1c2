// A form's CAPTCHA, in its settings: off, or Cloudflare Turnstile, hCaptcha or reCAPTCHA v2 with the
// provider's site key (public, it goes into the embed code) and secret key (sent once, never shown
// again: the page only knows that one is set). Saved on its own. Before a save that turns CAPTCHA on
// or changes its provider, a warning beside Save says that pages with the old embed code must get
// the new one, or their posts are refused.
import { memo, useId, useState } from 'react';
import { useFormik } from 'formik';
import { Alert, Badge, Heading, Link, Stack, Text } from '@chakra-ui/react';
import {
  CaptchaKeyFields,
  captchaKeysSchema,
  type CaptchaKeyValues,
} from '../../../components/captcha-keys';
import { notify } from '../../../components/toaster';
import { paths } from '../../../config/paths';
import type { Tables } from '../../../lib/database';
import { useSaveCaptcha } from '../api/save-captcha';
import { CAPTCHA_WIDGETS } from '../../../config/captcha';
import type { CaptchaProvider } from '../../../lib/database';
import { describeCaptcha, describeCaptchaError } from '../captcha-texts';
import { SettingSaveRow } from '../../../components/setting-states';
import { useUnsavedChanges } from '../../../components/unsaved-changes';

export interface CaptchaSectionProps {
  form: Pick<Tables<'forms'>, 'id' | 'allowed_origin' | 'captcha_provider' | 'captcha_site_key'>;
}

interface Saved {
  provider: CaptchaProvider | null;
  siteKey: string | null;
}

// Memoised: the dialog re-renders on every keystroke in its own fields, and this form is not theirs.
export const CaptchaSection = memo(function CaptchaSection({ form }: CaptchaSectionProps) {
  const headingId = useId();
  const providerId = useId();
  const save = useSaveCaptcha();
  const [saved, setSaved] = useState<Saved>({
    provider: form.captcha_provider,
    siteKey: form.captcha_site_key,
  });

  const formik = useFormik<CaptchaKeyValues>({
    initialValues: {
      provider: saved.provider ?? '',
      siteKey: saved.siteKey ?? '',
      secret: '',
    },
    validationSchema: captchaKeysSchema(saved.provider),
    onSubmit: async (values, helpers) => {
      helpers.setStatus(undefined);
      const provider = values.provider || null;
      try {
        const result = await save.mutateAsync({
          formId: form.id,
          provider,
          siteKey: values.siteKey.trim(),
          secret: values.secret.trim(),
        });
        const next = { provider: result.captcha_provider, siteKey: result.captcha_site_key };
        setSaved(next);
        // The secret field empties: what was typed is stored and never shown again.
        helpers.resetForm({
          values: { provider: next.provider ?? '', siteKey: next.siteKey ?? '', secret: '' },
        });
        notify(
          'success',
          'CAPTCHA saved',
          next.provider
            ? `Copy the embed code again: it now includes the ${CAPTCHA_WIDGETS[next.provider].label} widget.`
            : 'Posts no longer need a CAPTCHA; you can remove the widget from your page.',
        );
      } catch (error) {
        const message = describeCaptchaError(error);
        helpers.setStatus(message);
        notify('error', 'CAPTCHA not saved', message);
      }
    },
  });
  useUnsavedChanges(formik.dirty);
  const provider = formik.values.provider;

  return (
    <Stack as="section" aria-labelledby={headingId} gap="3">
      <Heading as="h3" id={headingId} size="sm">
        CAPTCHA
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Optional: visitors solve a challenge, and tinyback checks it with the provider before
        storing a message.{' '}
        <Link
          href={`${paths.docs}#captcha`}
          target="_blank"
          rel="noopener"
          colorPalette="teal"
          variant="underline"
        >
          About CAPTCHA
        </Link>
      </Text>
      <Stack direction="row" align="center" gap="2" wrap="wrap">
        <Badge colorPalette={saved.provider ? 'green' : 'gray'} variant="subtle">
          {saved.provider ? 'On' : 'Off'}
        </Badge>
        <Text fontSize="sm" data-testid="captcha-state">
          {describeCaptcha(saved.provider)}
        </Text>
      </Stack>

      <form onSubmit={formik.handleSubmit} noValidate aria-label="CAPTCHA">
        <Stack gap="3" borderWidth="1px" borderRadius="md" p="3">
          <CaptchaKeyFields
            formik={formik}
            saved={saved.provider}
            providerId={providerId}
            origin={form.allowed_origin}
            siteKeyHint="Public: it goes into your embed code."
            checks="each post"
          />

          {provider !== '' && provider !== saved.provider && (
            <Alert.Root status="warning" data-testid="captcha-embed-warning">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>
                  Update your page: posts without the {CAPTCHA_WIDGETS[provider].label} widget will
                  be refused
                </Alert.Title>
                <Alert.Description>
                  Once you save, every post to this form must carry a{' '}
                  {CAPTCHA_WIDGETS[provider].label} check. Replace the embed code you pasted before
                  with the new one (Embed code, on the form’s card) right after saving: until then,
                  your visitors’ messages from the old code are refused.
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          <SettingSaveRow error={formik.status} saving={formik.isSubmitting} label="Save CAPTCHA" />
        </Stack>
      </form>
    </Stack>
  );
});
