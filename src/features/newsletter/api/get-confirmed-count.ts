// How many confirmed subscribers a list has now: who a campaign sent now would reach. A head
// count, no rows read.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { newsletterKeys } from './query-keys';

async function getConfirmedCount(listId: string): Promise<number> {
  const { count, error } = await supabase
    .from('list_subscribers')
    .select('id', { count: 'exact', head: true })
    .eq('list_id', listId)
    .eq('status', 'confirmed');
  if (error) throw error;
  return count ?? 0;
}

export function useConfirmedCount(listId: string | null) {
  return useQuery({
    queryKey: newsletterKeys.confirmedCount(listId ?? ''),
    queryFn: () => getConfirmedCount(listId ?? ''),
    enabled: Boolean(listId),
  });
}
