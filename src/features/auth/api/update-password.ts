// Set a new password for the user signed in through a password-reset link.
import { supabase } from '../../../lib/supabase';

export async function updatePassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}
