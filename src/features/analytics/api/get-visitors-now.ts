// How many distinct visitors a site had in the last five minutes. Read once when the page opens;
// after that the analytics_live row of the site brings each new figure (use-live-visitors.ts).
// A share link's visitor has no Realtime: the figure is polled (get-shared-visitors-now.ts).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { SHARED_VISITORS_POLL_MS } from '../share-link';
import type { StatsSource } from './get-stats';
import { shareKeys } from './get-share';
import { getSharedVisitorsNow } from './get-shared-visitors-now';
import { analyticsKeys } from './get-sites';

async function getVisitorsNow(siteId: string): Promise<number> {
  const { data, error } = await supabase.rpc('analytics_visitors_now', { p_site_id: siteId });
  if (error) throw error;
  return data ?? 0;
}

export function useVisitorsNow(source: StatsSource) {
  const token = 'token' in source ? source.token : null;
  const siteId = 'siteId' in source ? source.siteId : '';
  return useQuery({
    queryKey: token ? shareKeys.sharedVisitorsNow(token) : analyticsKeys.visitorsNow(siteId),
    queryFn: () => (token ? getSharedVisitorsNow(token) : getVisitorsNow(siteId)),
    // Realtime keeps the owner's fresh; a minute's poll covers a subscription that is down.
    refetchInterval: token ? SHARED_VISITORS_POLL_MS : 60_000,
  });
}
