// Newsletter signup: one call of the `newsletter` Edge Function (supabase/functions/newsletter),
// which e-mails the address a confirmation link (double opt-in). Its answer is the same whether
// the address is new, waiting for confirmation or already subscribed, so there is nothing to read
// back: success means "check your inbox".
import * as yup from 'yup';
import { useMutation } from '@tanstack/react-query';
import { NEWSLETTER_TEXT } from '../../../config/site';

export const subscribeSchema = yup.object({
  email: yup
    .string()
    .trim()
    .required(NEWSLETTER_TEXT.invalidEmail)
    .email(NEWSLETTER_TEXT.invalidEmail),
});

export type SubscribeInput = yup.InferType<typeof subscribeSchema>;

export async function subscribeToNewsletter(input: SubscribeInput): Promise<void> {
  const { email } = await subscribeSchema.validate(input);
  // Loaded on submit: the form sits in every page's footer, and most visitors never use it.
  const { supabase } = await import('../../../lib/supabase');
  const { error } = await supabase.functions.invoke('newsletter', {
    body: { email: email.toLowerCase() },
  });
  if (error) throw error;
}

export function useSubscribeToNewsletter() {
  return useMutation({ mutationFn: subscribeToNewsletter });
}
