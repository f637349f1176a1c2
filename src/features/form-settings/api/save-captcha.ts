// Turns a form's CAPTCHA on, changes it or turns it off, through set_form_captcha(): the secret
// key goes to the database and never comes back (the browser cannot read the table it lives in);
// the answer is the form's public part (provider and site key), which the embed code uses.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { CAPTCHA_PROVIDERS } from '../../../config/captcha';
import { formsListKey } from '../../../config/query-keys';
import type { Functions, Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import { SECRET_PATTERN, SITE_KEY_PATTERN } from '../captcha-texts';

const saveCaptchaSchema = yup.object({
  formId: yup.string().uuid().required(),
  /** null: off (the keys are forgotten). */
  provider: yup.string().oneOf(CAPTCHA_PROVIDERS).nullable().defined(),
  siteKey: yup
    .string()
    .trim()
    .when('provider', {
      is: (p: unknown) => p != null,
      then: (s) =>
        s
          .required('Enter the site key.')
          .matches(SITE_KEY_PATTERN, 'Enter the site key exactly as the provider shows it.'),
    }),
  /** Empty: keep the stored secret (same provider only; the database checks). */
  secret: yup.string().trim().matches(SECRET_PATTERN, {
    message: 'Enter the secret key exactly as the provider shows it.',
    excludeEmptyString: true,
  }),
});
type SaveCaptchaInput = yup.InferType<typeof saveCaptchaSchema>;

type SavedCaptcha = Functions<'set_form_captcha'>['Returns'];

async function saveCaptcha(input: SaveCaptchaInput): Promise<SavedCaptcha> {
  const { formId, provider, siteKey, secret } = saveCaptchaSchema.validateSync(input);
  const { data, error } = await supabase.rpc('set_form_captcha', {
    p_form_id: formId,
    p_provider: provider ?? null,
    p_site_key: provider ? (siteKey ?? null) : null,
    p_secret: provider ? secret || null : null,
  });
  if (error) throw error;
  return data;
}

export function useSaveCaptcha() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveCaptcha,
    // The forms list's cached form (its card's embed code) follows at once; Realtime reports the
    // same change.
    onSuccess: (saved, input) =>
      client.setQueryData<Tables<'forms'>[]>(formsListKey(), (list) =>
        list?.map((f) => (f.id === input.formId ? { ...f, ...saved } : f)),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: formsListKey() }),
  });
}
