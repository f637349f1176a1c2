// Signing out from the header's profile menu or the dashboard sidebar: one sign-out at a time,
// a toast if it fails, and the login page afterwards either way (spec: logout leads to /login).
import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth';

export function useSignOut(): () => Promise<void> {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const signingOut = useRef(false);
  return useCallback(async () => {
    if (signingOut.current) return;
    signingOut.current = true;
    try {
      await signOut();
    } catch {
      // Imported here: the toaster's code is not part of the first page load (toaster-loader.tsx).
      const { notify } = await import('../toaster');
      notify('error', 'Logging out failed', 'Check your connection and try again.');
    } finally {
      signingOut.current = false;
      navigate(paths.login);
    }
  }, [signOut, navigate]);
}
