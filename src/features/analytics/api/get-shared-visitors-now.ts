// "Visitors now" of the site a share link opens. Polled: Realtime is for signed-in owners.
import { supabase } from '../../../lib/supabase';

export async function getSharedVisitorsNow(token: string): Promise<number> {
  const { data, error } = await supabase.rpc('analytics_shared_visitors_now', { p_token: token });
  if (error) throw error;
  return data ?? 0;
}
