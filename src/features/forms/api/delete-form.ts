// Deletes a form; its messages go with it (foreign keys cascade). The card leaves the list at once
// and comes back if the server refuses.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { applyFormChange, removedForm } from '../forms-cache';
import { formsKeys, type Form } from './get-forms';

async function deleteForm(id: string): Promise<void> {
  // A form already gone (deleted in another tab) is the outcome asked for, not an error.
  const { error } = await supabase.from('forms').delete().eq('id', id);
  if (error) throw error;
}

export function useDeleteForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteForm,
    onMutate: async (id: string) => {
      await client.cancelQueries({ queryKey: formsKeys.list() });
      const previous = client.getQueryData<Form[]>(formsKeys.list());
      applyFormChange(client, removedForm(id));
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) client.setQueryData(formsKeys.list(), context.previous);
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: formsKeys.list() }),
        client.invalidateQueries({ queryKey: formsKeys.counts() }),
      ]),
  });
}
