// The current public share token of one of the owner's sites, or null when it has none
// (analytics_share_get; another account's site is refused like a missing one).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

export const shareKeys = {
  /** The owner's share token of a site. */
  ofSite: (siteId: string) => ['analytics', 'share', siteId] as const,
  /** Everything a visitor of a share link reads. */
  shared: (token: string) => ['analytics-shared', token] as const,
  sharedSite: (token: string) => ['analytics-shared', token, 'site'] as const,
  sharedStats: (token: string, args: object) => ['analytics-shared', token, 'stats', args] as const,
  sharedVisitorsNow: (token: string) => ['analytics-shared', token, 'visitors-now'] as const,
};

async function getShare(siteId: string): Promise<string | null> {
  const { data, error } = await supabase.rpc('analytics_share_get', { p_site_id: siteId });
  if (error) throw error;
  return data ?? null;
}

export function useShare(siteId: string) {
  return useQuery({ queryKey: shareKeys.ofSite(siteId), queryFn: () => getShare(siteId) });
}
