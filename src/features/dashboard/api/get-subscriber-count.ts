// How many confirmed subscribers the signed-in owner has across their lists: a head count, no
// rows read.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

export const subscriberCountKey = ['dashboard', 'subscriber-count'] as const;

async function getSubscriberCount(): Promise<number> {
  const { count, error } = await supabase
    .from('list_subscribers')
    .select('id', { count: 'exact', head: true })
    .eq('status', 'confirmed');
  if (error) throw error;
  return count ?? 0;
}

export function useSubscriberCount() {
  return useQuery({ queryKey: subscriberCountKey, queryFn: getSubscriberCount });
}
