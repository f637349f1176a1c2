// The signed-in account's own confirmed address, which a form may send to without a confirmation
// link: the New Form dialog starts with it as the target. Read from the session supabase-js keeps
// (no request to the server).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

const accountEmailKey = ['forms', 'account-email'] as const;

async function getAccountEmail(): Promise<string | null> {
  const { data } = await supabase.auth.getSession();
  const user = data.session?.user;
  return user?.email && user.email_confirmed_at ? user.email : null;
}

export function useAccountEmail() {
  return useQuery({ queryKey: accountEmailKey, queryFn: getAccountEmail, staleTime: Infinity });
}
