// Newsletter signup: one insert into `newsletter_subscribers`. The visitor (anon) may insert but
// not read, so nothing is selected back; a repeated e-mail is skipped by the database, not an error.
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { NEWSLETTER_TEXT } from '../../../config/site';

export const subscribeSchema = yup.object({
  email: yup
    .string()
    .trim()
    .required(NEWSLETTER_TEXT.invalidEmail)
    .email(NEWSLETTER_TEXT.invalidEmail),
});

export type SubscribeInput = yup.InferType<typeof subscribeSchema>;

export async function subscribeToNewsletter({ email }: SubscribeInput): Promise<void> {
  const { error } = await supabase
    .from('newsletter_subscribers')
    .insert({ email: email.trim().toLowerCase() });
  if (error) throw error;
}
