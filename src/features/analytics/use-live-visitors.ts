// "Visitors now", live: ingestion rewrites the site's public.analytics_live row (visitors in the
// last five minutes) at most every five seconds, and Realtime brings each change to the owner.
// The channel is this page's own, not the dashboard's shared one (lib/live-sync.ts): only this
// page needs these changes, which arrive every few seconds on a busy site. It is filtered on the
// owner (`user_id=eq.<uid>`: Realtime checks only this owner's rows against RLS), opened in an
// effect and removed in its cleanup. A change sets the figure at once and reads the stats again
// soon after, at most once per STATS_REFRESH_MS: a busy site costs one stats query per interval,
// not one per change; and once more when the site has gone quiet (QUIET_AFTER_MS).
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import type { Tables } from '../../lib/database';
import { REFETCH_WINDOW_MS } from '../../lib/refetch-soon';
import { supabase } from '../../lib/supabase';
import { analyticsKeys } from './api/get-sites';

/** The shortest time between two stats reads that live changes cause. */
const STATS_REFRESH_MS = 15_000;
/**
 * Ingestion rewrites the live row at most every 5 seconds, so events in the 5 seconds after a
 * change bring no change of their own when the site then goes quiet: the stats are read once more
 * when that long has passed since the last change (with a second's margin).
 */
const QUIET_AFTER_MS = 6_000;

export function useLiveVisitors(userId: string | undefined, siteId: string | undefined): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!userId || !siteId) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let quiet: ReturnType<typeof setTimeout> | undefined;
    let lastRefresh = 0;
    const readStats = () => {
      lastRefresh = Date.now();
      void client.refetchQueries({ queryKey: analyticsKeys.siteStats(siteId), type: 'active' });
    };
    const refreshStats = () => {
      clearTimeout(quiet);
      quiet = setTimeout(readStats, QUIET_AFTER_MS);
      if (timer) return;
      // The first change after a quiet spell refreshes within a moment; later ones wait for the
      // interval to pass, and those in between are covered by that one read.
      const wait = Math.max(REFETCH_WINDOW_MS, lastRefresh + STATS_REFRESH_MS - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        readStats();
      }, wait);
    };
    const channel = supabase
      .channel(`analytics-live:${userId}`)
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'analytics_live', filter: `user_id=eq.${userId}` },
        (payload: RealtimePostgresChangesPayload<Tables<'analytics_live'>>) => {
          // A deleted row (its site deleted) has no `new` values.
          const row: Partial<Tables<'analytics_live'>> = payload.new;
          if (row.site_id !== siteId || typeof row.visitors_now !== 'number') return;
          client.setQueryData(analyticsKeys.visitorsNow(siteId), row.visitors_now);
          refreshStats();
        },
      )
      .subscribe();
    return () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      void supabase.removeChannel(channel);
    };
  }, [client, userId, siteId]);
}
