// Send the password-reset e-mail; its link brings the user back to the login page.
import { supabase } from '../../../lib/supabase';
import { paths } from '../../../config/paths';

export async function requestPasswordReset(email: string): Promise<void> {
  const { error } = await supabase.auth.resetPasswordForEmail(email.trim(), {
    redirectTo: `${window.location.origin}${paths.login}`,
  });
  if (error) throw error;
}
