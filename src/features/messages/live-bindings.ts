// How realtime changes of `entries` reach the inbox's cache, so a new message appears without a
// reload: an INSERT is read back by id (for its form name and delivery, which a payload lacks)
// and merged into every cached list whose view, form and search it matches, flagged as new; an
// UPDATE (read, spam) is merged; a DELETE (its payload holds only the id) is removed. Counts are
// read again after every change.
import type { QueryClient } from '@tanstack/react-query';
import type { LiveBinding } from '../../lib/live-sync';
import type { RowChange } from '../../lib/merge-change';
import { getMessagesById } from './api/get-messages-by-id';
import { messagesKeys } from './api/query-keys';
import { applyEntryChange } from './message-cache';
import { messageColumns, toMessage } from './message-fields';
import type { Message } from './types';

/**
 * Inserts arriving within this window are read back in one request: a burst of submissions
 * costs one read per open dashboard, not one per message.
 */
const INSERT_BATCH_MS = 50;

let batch: { ids: Set<string>; read: Promise<Map<string, Message>> } | null = null;

function readBatched(id: string): Promise<Map<string, Message>> {
  if (!batch) {
    const ids = new Set<string>();
    const read = new Promise((resolve) => setTimeout(resolve, INSERT_BATCH_MS)).then(() => {
      batch = null;
      return getMessagesById([...ids]);
    });
    batch = { ids, read };
  }
  batch.ids.add(id);
  return batch.read;
}

/** The new message with its embeds; the payload alone if it cannot be read right now. */
async function readInserted(change: RowChange): Promise<Message | null> {
  const id = typeof change.new.id === 'string' ? change.new.id : '';
  try {
    return (await readBatched(id)).get(id) ?? null;
  } catch {
    try {
      return toMessage({ ...messageColumns(change.new), form: null, delivery: null });
    } catch {
      return null;
    }
  }
}

export async function applyMessagesChange(client: QueryClient, change: RowChange): Promise<void> {
  void client.invalidateQueries({ queryKey: messagesKeys.unread() });
  void client.invalidateQueries({ queryKey: messagesKeys.counts() });
  if (change.eventType !== 'INSERT') {
    applyEntryChange(client, change);
    return;
  }
  const row = await readInserted(change);
  // Null: deleted again before it could be read, or not the reader's.
  if (row) applyEntryChange(client, change, { ...row, arrivedLive: true });
}

export const messagesLiveBindings: readonly LiveBinding[] = [
  {
    table: 'entries',
    queryKey: messagesKeys.all,
    apply: (client, change) => void applyMessagesChange(client, change),
  },
];
