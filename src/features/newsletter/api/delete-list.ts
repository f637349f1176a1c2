// Deletes a list; its subscribers and campaigns go with it (foreign keys cascade), and its signup
// form stops working at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { NewsletterList } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

async function deleteList(id: string): Promise<void> {
  // A list already gone (deleted in another tab) is the outcome asked for, not an error.
  const { error } = await supabase.from('newsletter_lists').delete().eq('id', id);
  if (error) throw error;
}

export function useDeleteList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteList,
    onSuccess: (_data, id) => {
      client.setQueryData<NewsletterList[]>(newsletterKeys.lists(), (lists) =>
        lists?.filter((row) => row.id !== id),
      );
      client.removeQueries({ queryKey: newsletterKeys.subscribers(id) });
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: newsletterKeys.lists() }),
        client.invalidateQueries({ queryKey: newsletterKeys.campaigns() }),
      ]),
  });
}
