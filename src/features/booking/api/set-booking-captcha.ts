// Turns a booking form's CAPTCHA on (a provider, its site key and secret) or off
// (set_booking_captcha). The secret is write-only: it is stored apart from the form and never
// read back; left empty, the saved one stays. The cached form takes the public part at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CaptchaProvider } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import type { BookingFormRow } from '../booking-form-schema';
import { bookingKeys } from './query-keys';

interface CaptchaInput {
  formId: string;
  provider: CaptchaProvider | null;
  siteKey: string;
  /** Empty: keep the saved secret. */
  secret: string;
}

async function setBookingCaptcha({ formId, provider, siteKey, secret }: CaptchaInput) {
  const { data, error } = await supabase.rpc('set_booking_captcha', {
    p_booking_form_id: formId,
    p_provider: provider,
    p_site_key: provider ? siteKey.trim() : null,
    p_secret: provider && secret.trim() ? secret.trim() : null,
  });
  if (error) throw error;
  return data;
}

export function useSetBookingCaptcha() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setBookingCaptcha,
    onSuccess: (captcha, { formId }) => {
      const merge = (form: BookingFormRow) => (form.id === formId ? { ...form, ...captcha } : form);
      client.setQueryData<BookingFormRow | null>(bookingKeys.form(formId), (form) =>
        form ? merge(form) : form,
      );
      client.setQueryData<BookingFormRow[]>(bookingKeys.forms(), (list) => list?.map(merge));
    },
  });
}
