// Reads the signed-in account's plan and usage: one call, `plan_usage()` (security definer, the
// caller only), since this month's count lives where no client may read it.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { parsePlanUsage, type PlanUsage } from '../plan-usage';

export const planUsageKeys = {
  all: ['plan-usage'] as const,
};

async function getPlanUsage(): Promise<PlanUsage> {
  const { data, error } = await supabase.rpc('plan_usage');
  if (error) throw error;
  return parsePlanUsage(data);
}

export function usePlanUsage() {
  // Read afresh on every page that shows it; live changes of forms and messages also mark it stale
  // (live-bindings.ts).
  return useQuery({ queryKey: planUsageKeys.all, queryFn: getPlanUsage, staleTime: 0 });
}
