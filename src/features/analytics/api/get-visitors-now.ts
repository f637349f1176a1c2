// How many distinct visitors a site had in the last five minutes. Read once when the page opens;
// after that the analytics_live row of the site brings each new figure (use-live-visitors.ts).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { analyticsKeys } from './get-sites';

async function getVisitorsNow(siteId: string): Promise<number> {
  const { data, error } = await supabase.rpc('analytics_visitors_now', { p_site_id: siteId });
  if (error) throw error;
  return data ?? 0;
}

export function useVisitorsNow(siteId: string) {
  return useQuery({
    queryKey: analyticsKeys.visitorsNow(siteId),
    queryFn: () => getVisitorsNow(siteId),
    // Realtime keeps it fresh; a minute's poll covers a subscription that is down.
    refetchInterval: 60_000,
  });
}
