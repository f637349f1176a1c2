// Delete the signed-in user's account and everything it owns (the session is ended afterwards by
// end-deleted-session.ts).
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

/**
 * `delete_own_account()` deletes the auth user; its profile, forms, messages, sessions and refresh
 * tokens go with it (on delete cascade).
 */
async function deleteAccount(): Promise<void> {
  const { error } = await supabase.rpc('delete_own_account');
  if (error) throw new Error(error.message);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
