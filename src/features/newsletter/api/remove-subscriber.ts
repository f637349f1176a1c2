// Removes a subscriber from a list for good (the owner may delete, never edit, subscribers).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { removeSubscriberFromPages } from '../newsletter-cache';
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
    // Off the pages at once (then read again, with the counts), and out of the confirmed count.
    onSuccess: (_data, subscriber) => {
      void removeSubscriberFromPages(client, subscriber);
      void client.invalidateQueries({
        queryKey: newsletterKeys.confirmedCount(subscriber.list_id),
      });
    },
  });
}
