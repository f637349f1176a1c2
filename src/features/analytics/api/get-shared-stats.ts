// The stats a share link opens: analytics_shared_stats(p_token, …) answers what analytics_stats
// answers the owner, for at most 366 days and a per-minute budget per link.
import { supabase } from '../../../lib/supabase';
import type { SiteStats, StatsQuery } from './get-stats';

export type SharedStatsQuery = Omit<StatsQuery, 'siteId'> & { token: string };

export async function getSharedStats({
  token,
  from,
  to,
  filters,
}: SharedStatsQuery): Promise<SiteStats | null> {
  const { data, error } = await supabase.rpc('analytics_shared_stats', {
    p_token: token,
    p_from: from,
    p_to: to,
    p_filters: filters,
  });
  if (error) throw error;
  return data ?? null;
}
