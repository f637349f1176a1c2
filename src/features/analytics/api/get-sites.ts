// Reads the owner's analytics sites (RLS: only their own), oldest first, and the query keys of
// the whole feature.
import { useQuery } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';

export type AnalyticsSite = Pick<
  Tables<'analytics_sites'>,
  'id' | 'name' | 'domains' | 'retention_days' | 'created_at'
>;

export const SITE_COLUMNS = 'id, name, domains, retention_days, created_at';

export const analyticsKeys = {
  all: ['analytics'] as const,
  sites: () => ['analytics', 'sites'] as const,
  /** Every stats query of a site, whatever its range and filters. */
  siteStats: (siteId: string) => ['analytics', 'stats', siteId] as const,
  stats: (siteId: string, args: object) => ['analytics', 'stats', siteId, args] as const,
  visitorsNow: (siteId: string) => ['analytics', 'visitors-now', siteId] as const,
};

async function getSites(): Promise<AnalyticsSite[]> {
  const { data, error } = await supabase
    .from('analytics_sites')
    .select(SITE_COLUMNS)
    .order('created_at', { ascending: true })
    .order('id', { ascending: true });
  if (error) throw error;
  return data ?? [];
}

export function useSites() {
  return useQuery({ queryKey: analyticsKeys.sites(), queryFn: getSites });
}
