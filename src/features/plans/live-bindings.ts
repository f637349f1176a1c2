// How realtime changes reach the plan's usage: a new message (this month's count) or a form
// added, moved to another website or deleted (projects) marks it stale, so the banner and
// Settings read it again, once per burst (refetch-soon.ts).
import type { QueryClient } from '@tanstack/react-query';
import type { LiveBinding } from '../../lib/live-sync';
import { refetchSoon } from '../../lib/refetch-soon';
import type { RowChange } from '../../lib/merge-change';
import { planUsageKeys } from './api/get-plan-usage';

function invalidate(client: QueryClient, change: RowChange) {
  if (change.table === 'entries' && change.eventType !== 'INSERT') return;
  refetchSoon(client, planUsageKeys.all);
}

export const planLiveBindings: readonly LiveBinding[] = [
  { table: 'entries', apply: invalidate, queryKey: planUsageKeys.all },
  { table: 'forms', apply: invalidate, queryKey: planUsageKeys.all },
];
