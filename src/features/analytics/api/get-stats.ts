// The stats of one site for a range and filters, from one RPC, analytics_stats(p_site_id, p_from,
// p_to, p_filters): totals against the equally long period just before, a series with every bucket
// (hours for a single day, days otherwise) and the top ten of each breakdown. It answers null for
// a site that is not the caller's.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '../../../lib/supabase';
import type { DateRange } from '../date-range';
import type { FilterKey, StatsFilters } from '../stats-filters';
import { analyticsKeys } from './get-sites';

export interface StatsTotals {
  visitors: number;
  visits: number;
  pageviews: number;
  /** Visits of a single page view, as a percentage (0–100) of all visits. */
  bounce_rate: number;
  events: number;
}

export interface SeriesPoint {
  /** The bucket's start, an ISO timestamp. */
  t: string;
  visitors: number;
  pageviews: number;
}

export interface TopRow {
  /** The page path, referrer host ('(direct)' for none), country code, browser … */
  value: string;
  visitors: number;
  pageviews: number;
}

export interface EventRow {
  value: string;
  visitors: number;
  events: number;
}

export interface SiteStats {
  range: DateRange & { bucket: 'hour' | 'day' };
  totals: StatsTotals;
  previous: StatsTotals;
  series: SeriesPoint[];
  top: Record<Exclude<FilterKey, 'event'>, TopRow[]> & { event: EventRow[] };
}

/**
 * The analytics RPCs are not in the generated `Database` type until their SQL lands in
 * supabase/schemas/17-analytics.sql (then `npm run db:types` adds them and this view of the client
 * can go): they are called through this one untyped signature, and their answers typed above.
 */
interface PendingRpcs {
  rpc(
    name: 'analytics_stats' | 'analytics_visitors_now',
    args: Record<string, unknown>,
  ): PromiseLike<{ data: unknown; error: PostgrestError | null }>;
}
export const analyticsRpc = supabase as unknown as PendingRpcs;

export interface StatsQuery extends DateRange {
  siteId: string;
  filters: StatsFilters;
}

async function getStats({ siteId, from, to, filters }: StatsQuery): Promise<SiteStats | null> {
  const { data, error } = await analyticsRpc.rpc('analytics_stats', {
    p_site_id: siteId,
    p_from: from,
    p_to: to,
    p_filters: filters,
  });
  if (error) throw error;
  return (data ?? null) as SiteStats | null;
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
