// Removes a subscriber from a list for good (the owner may delete, never edit, subscribers).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Subscriber } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

async function removeSubscriber(subscriber: Pick<Subscriber, 'id' | 'list_id'>): Promise<void> {
  const { error } = await supabase.from('list_subscribers').delete().eq('id', subscriber.id);
  if (error) throw error;
}

export function useRemoveSubscriber() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeSubscriber,
    onSuccess: (_data, { id, list_id }) => {
      client.setQueryData<Subscriber[]>(newsletterKeys.subscribers(list_id), (rows) =>
        rows?.filter((row) => row.id !== id),
      );
      void client.invalidateQueries({ queryKey: newsletterKeys.confirmedCount(list_id) });
    },
  });
}
