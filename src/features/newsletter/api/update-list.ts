// Saves a list's settings; its id, owner and subscribers stay.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { ListInput } from '../list-schema';
import type { NewsletterList } from '../newsletter-types';
import { LIST_COLUMNS } from './get-lists';
import { newsletterKeys } from './query-keys';

async function updateList({ id, ...input }: ListInput & { id: string }): Promise<NewsletterList> {
  const { data, error } = await supabase
    .from('newsletter_lists')
    .update(input)
    .eq('id', id)
    .select(LIST_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useUpdateList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateList,
    onSuccess: (list) => {
      client.setQueryData<NewsletterList[]>(newsletterKeys.lists(), (lists) =>
        lists?.map((row) => (row.id === list.id ? list : row)),
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: newsletterKeys.lists() }),
  });
}
