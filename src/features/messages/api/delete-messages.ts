// Deletes messages for good. They leave the lists at once (optimistic) and come back if the
// server refuses.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { notify } from '../../../components/toaster';
import { supabase } from '../../../lib/supabase';
import { removeCachedMessages, restoreMessages, snapshotMessages } from '../message-cache';
import { isUuid } from '../message-query';
import { messagesKeys } from './query-keys';

/** Ids per request, to keep the URL short. */
const IDS_PER_REQUEST = 100;

const deleteMessagesSchema = yup
  .array(
    yup
      .string()
      .defined()
      .test('uuid', 'Unknown message.', (value) => isUuid(value)),
  )
  .min(1)
  .defined();

async function deleteMessages(ids: string[]): Promise<void> {
  const valid = deleteMessagesSchema.validateSync(ids);
  for (let start = 0; start < valid.length; start += IDS_PER_REQUEST) {
    const { error } = await supabase
      .from('entries')
      .delete()
      .in('id', valid.slice(start, start + IDS_PER_REQUEST));
    if (error) throw error;
  }
}

export function useDeleteMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => deleteMessages(ids),
    onMutate: async (ids) => {
      await client.cancelQueries({ queryKey: messagesKeys.lists() });
      const snapshot = snapshotMessages(client);
      removeCachedMessages(client, ids);
      return { snapshot };
    },
    onError: (error, ids, context) => {
      if (context) restoreMessages(client, context.snapshot);
      notify(
        'error',
        ids.length === 1 ? 'Could not delete the message' : 'Could not delete the messages',
        error instanceof Error ? error.message : undefined,
      );
    },
    onSuccess: (_data, ids) => {
      notify('success', ids.length === 1 ? 'Message deleted' : `${ids.length} messages deleted`);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: messagesKeys.unread() });
      void client.invalidateQueries({ queryKey: messagesKeys.counts() });
    },
  });
}
