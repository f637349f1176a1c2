// End this browser's session after its account was deleted.
import { supabase } from '../../../lib/supabase';

/**
 * Drops this browser's copy of the deleted user's session. The server session is gone with the
 * user, so only the local one is ended: supabase-js still calls /logout, ignores its "user not
 * found" answer (403/404), removes the stored session and emits SIGNED_OUT. Never throws: the
 * account is gone either way, and should the server be unreachable at this very moment, the
 * stored session fails its next refresh (its refresh token was deleted with the user) and
 * supabase-js drops it then.
 */
export async function endDeletedSession(): Promise<void> {
  try {
    const { error } = await supabase.auth.signOut({ scope: 'local' });
    if (error) console.warn('Signing out after deleting the account failed:', error);
  } catch (caught) {
    console.warn('Signing out after deleting the account failed:', caught);
  }
}
