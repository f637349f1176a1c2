// Send the sign-up confirmation link again; like the first, it leads to the dashboard, signed in.
import { supabase } from '../../../lib/supabase';
import { confirmationRedirect } from './sign-up';

export async function resendConfirmation(email: string): Promise<void> {
  const { error } = await supabase.auth.resend({
    type: 'signup',
    email: email.trim(),
    options: { emailRedirectTo: confirmationRedirect() },
  });
  if (error) throw error;
}
