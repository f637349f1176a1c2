// Changes the flags the owner may change on messages: read (read_at) and spam (is_spam). The
// cache changes at once (optimistic update) and is put back if the server refuses.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { notify } from '../../../components/toaster';
import { supabase } from '../../../lib/supabase';
import {
  patchCachedMessages,
  restoreMessages,
  snapshotMessages,
  type MessagePatch,
} from '../message-cache';
import { isUuid } from '../message-query';
import { messagesKeys } from './query-keys';

/** Ids per request, to keep the URL short. */
const IDS_PER_REQUEST = 100;

export type MessageAction = 'read' | 'unread' | 'spam' | 'not-spam';

export interface UpdateMessagesInput {
  ids: string[];
  action: MessageAction;
  /** No success toast (opening a message marks it read without comment). */
  silent?: boolean;
}

const updateMessagesSchema = yup.object({
  ids: yup
    .array(
      yup
        .string()
        .defined()
        .test('uuid', 'Unknown message.', (value) => isUuid(value)),
    )
    .min(1)
    .defined(),
  action: yup.mixed<MessageAction>().oneOf(['read', 'unread', 'spam', 'not-spam']).defined(),
});

/** The columns an action writes; only read_at and is_spam are writable by the owner. */
function patchFor(action: MessageAction, now = new Date()): MessagePatch {
  switch (action) {
    case 'read':
      return { read_at: now.toISOString() };
    case 'unread':
      return { read_at: null };
    case 'spam':
      return { is_spam: true };
    case 'not-spam':
      return { is_spam: false };
  }
}

async function updateMessages(
  input: Pick<UpdateMessagesInput, 'ids' | 'action'>,
  patch: MessagePatch = patchFor(input.action),
): Promise<void> {
  const { ids } = updateMessagesSchema.validateSync(input);
  for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
    const { error } = await supabase
      .from('entries')
      .update(patch)
      .in('id', ids.slice(start, start + IDS_PER_REQUEST));
    if (error) throw error;
  }
}

const DONE: Record<MessageAction, (n: number) => string> = {
  read: (n) => (n === 1 ? 'Marked as read' : `${n} messages marked as read`),
  unread: (n) => (n === 1 ? 'Marked as unread' : `${n} messages marked as unread`),
  spam: (n) => (n === 1 ? 'Moved to spam' : `${n} messages moved to spam`),
  'not-spam': (n) => (n === 1 ? 'Moved to the inbox' : `${n} messages moved to the inbox`),
};

const FAILED: Record<MessageAction, string> = {
  read: 'Could not mark as read',
  unread: 'Could not mark as unread',
  spam: 'Could not move to spam',
  'not-spam': 'Could not move to the inbox',
};

function useUpdateMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateMessagesInput & { patch: MessagePatch }) =>
      updateMessages(input, input.patch),
    onMutate: async (input) => {
      // A list read now could answer with the old flags and undo the optimistic change.
      await client.cancelQueries({ queryKey: messagesKeys.lists() });
      const snapshot = snapshotMessages(client);
      patchCachedMessages(client, input.ids, input.patch);
      return { snapshot };
    },
    onError: (error, input, context) => {
      if (context) restoreMessages(client, context.snapshot);
      notify('error', FAILED[input.action], error instanceof Error ? error.message : undefined);
    },
    onSuccess: (_data, input) => {
      if (!input.silent) notify('success', DONE[input.action](input.ids.length));
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: messagesKeys.unread() });
      void client.invalidateQueries({ queryKey: messagesKeys.counts() });
    },
  });
}

/** Runs an action on messages: computes its columns once, so cache and server agree. */
export function useMessageAction() {
  const mutation = useUpdateMessages();
  return {
    ...mutation,
    run: (input: UpdateMessagesInput) =>
      mutation.mutate({ ...input, patch: patchFor(input.action) }),
  };
}
