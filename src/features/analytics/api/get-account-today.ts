// The owner's events stored today (UTC) over all their sites, and the account's daily cap that was
// applied to them (analytics_account_today(); null before the day's first event). The dashboard
// says so when the cap is reached: later events are not stored until midnight UTC.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { analyticsKeys } from './get-sites';

export interface AccountToday {
  events: number;
  limit: number | null;
}

async function getAccountToday(): Promise<AccountToday> {
  const { data, error } = await supabase.rpc('analytics_account_today');
  if (error) throw error;
  const answer = (data ?? {}) as { events?: unknown; limit?: unknown };
  return {
    events: Number(answer.events) || 0,
    limit: typeof answer.limit === 'number' ? answer.limit : null,
  };
}

export function useAccountToday() {
  return useQuery({
    queryKey: [...analyticsKeys.all, 'account-today'],
    queryFn: getAccountToday,
    // One primary-key read; a minute's poll is soon enough for a cap that holds until midnight.
    refetchInterval: 60_000,
  });
}
