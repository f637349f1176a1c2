// Creates a list; its owner is the caller (the column's default, auth.uid()).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { ListInput } from '../list-schema';
import type { NewsletterList } from '../newsletter-types';
import { LIST_COLUMNS } from './get-lists';
import { newsletterKeys } from './query-keys';

async function createList(input: ListInput): Promise<NewsletterList> {
  const { data, error } = await supabase
    .from('newsletter_lists')
    .insert(input)
    .select(LIST_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useCreateList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createList,
    onSuccess: (list) => {
      client.setQueryData<NewsletterList[]>(newsletterKeys.lists(), (lists) =>
        lists ? [...lists.filter((row) => row.id !== list.id), list] : lists,
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: newsletterKeys.lists() }),
  });
}
