// The stats of one site for a range and filters, from one RPC, analytics_stats(p_site_id, p_from,
// p_to, p_filters): totals against the equally long period just before, a series with every bucket
// (hours for a single day, days otherwise) and the top ten of each breakdown. It answers null for
// a site that is not the caller's. A share link's visitor reads the same answer through
// get-shared-stats.ts: the source says which.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  AnalyticsEventRow,
  AnalyticsStats,
  AnalyticsTopRow,
  AnalyticsTotals,
} from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import type { DateRange } from '../date-range';
import type { StatsFilters } from '../stats-filters';
import { shareKeys } from './get-share';
import { getSharedStats } from './get-shared-stats';
import { analyticsKeys } from './get-sites';

export type SiteStats = AnalyticsStats;
export type StatsTotals = AnalyticsTotals;
export type SeriesPoint = AnalyticsStats['series'][number];
export type TopRow = AnalyticsTopRow;
export type EventRow = AnalyticsEventRow;

export interface StatsQuery extends DateRange {
  siteId: string;
  filters: StatsFilters;
}

/** Whose stats: one of the owner's sites, or the site a share link opens. */
export type StatsSource = { siteId: string } | { token: string };

async function getStats({ siteId, from, to, filters }: StatsQuery): Promise<SiteStats | null> {
  const { data, error } = await supabase.rpc('analytics_stats', {
    p_site_id: siteId,
    p_from: from,
    p_to: to,
    p_filters: filters,
  });
  if (error) throw error;
  return data ?? null;
}

export function useStats(source: StatsSource, { from, to }: DateRange, filters: StatsFilters) {
  return useQuery({
    queryKey:
      'token' in source
        ? shareKeys.sharedStats(source.token, { from, to, filters })
        : analyticsKeys.stats(source.siteId, { from, to, filters }),
    queryFn: () =>
      'token' in source
        ? getSharedStats({ token: source.token, from, to, filters })
        : getStats({ siteId: source.siteId, from, to, filters }),
    // A new range or filter keeps the last numbers on screen (dimmed) until the new ones arrive,
    // instead of flashing the skeletons on every click.
    placeholderData: keepPreviousData,
  });
}
