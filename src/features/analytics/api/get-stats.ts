// The stats of one site for a range and filters, from one RPC, analytics_stats(p_site_id, p_from,
// p_to, p_filters): totals against the equally long period just before, a series with every bucket
// (hours for a single day, days otherwise) and the top ten of each breakdown. It answers null for
// a site that is not the caller's.
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

export function useStats(query: StatsQuery) {
  const { siteId, from, to, filters } = query;
  return useQuery({
    queryKey: analyticsKeys.stats(siteId, { from, to, filters }),
    queryFn: () => getStats(query),
    // A new range or filter keeps the last numbers on screen (dimmed) until the new ones arrive,
    // instead of flashing the skeletons on every click.
    placeholderData: keepPreviousData,
  });
}
