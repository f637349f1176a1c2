// How realtime changes of `entries` reach the inbox's cache, so a new message appears without a
// reload. An INSERT is shown at once, from the payload (the whole row, which RLS lets the owner
// read): the form's name from the cached forms list (or a cached message of the same form), the
// notification e-mail as queued (pending) unless the row says none was. What the payload cannot
// say (a form not cached, where the e-mail stands by now, the files sent with it) is read back by
// id in the background and filled in, and a message with files then joins the "has files" lists;
// a message that cannot be read back is gone or not the reader's, and leaves. A payload that lacks
// a shown column (Realtime leaves out values too large for it) is read back before it is shown.
// The message is merged into every cached list whose view, form and search it
// matches, flagged as new. An UPDATE (read, spam) is merged; a DELETE (its payload holds only the
// id) is removed. Counts are marked stale by every change and read again, a burst of changes at a
// time.
import type { QueryClient } from '@tanstack/react-query';
import { formsListKey } from '../../config/query-keys';
import type { Tables } from '../../lib/database';
import type { LiveBinding } from '../../lib/live-sync';
import { refetchSoon } from '../../lib/refetch-soon';
import type { RowChange } from '../../lib/merge-change';
import { getMessagesById } from './api/get-messages-by-id';
import { messagesKeys } from './api/query-keys';
import { applyEntryChange, completeCachedMessages, removeCachedMessages } from './message-cache';
import { messageColumns, toMessage } from './message-fields';
import { listRows, type MessagePages } from './merge-messages';
import type { Delivery, Message } from './types';

/**
 * Read-backs asked for within this window go in one request: a burst of submissions costs one
 * read per open dashboard, not one per message. The message is on screen before it starts (except
 * for a payload without a shown column), so the window costs no time to see it.
 */
const READ_BACK_BATCH_MS = 250;

/** Unread and per-view counts follow every change, read again once per burst (refetch-soon.ts). */
function countsChanged(client: QueryClient): void {
  refetchSoon(client, messagesKeys.unread());
  refetchSoon(client, messagesKeys.counts());
}

let batch: { ids: Set<string>; read: Promise<Map<string, Message>> } | null = null;

function readBatched(id: string): Promise<Map<string, Message>> {
  if (!batch) {
    const ids = new Set<string>();
    const read = new Promise((resolve) => setTimeout(resolve, READ_BACK_BATCH_MS)).then(() => {
      batch = null;
      return getMessagesById([...ids]);
    });
    batch = { ids, read };
  }
  batch.ids.add(id);
  return batch.read;
}

type FormRow = Pick<Tables<'forms'>, 'id' | 'name'>;

/** The form's name as the cache knows it: the forms list, else a cached message of that form. */
function cachedForm(client: QueryClient, formId: string): Message['form'] {
  const form = client.getQueryData<FormRow[]>(formsListKey())?.find((row) => row.id === formId);
  if (form) return { name: form.name };
  for (const [, data] of client.getQueriesData<MessagePages>({ queryKey: messagesKeys.lists() })) {
    const known = listRows(data).find((row) => row.form_id === formId && row.form);
    if (known?.form) return { name: known.form.name };
  }
  return null;
}

/** The delivery the endpoint queued with the entry, as it starts out; null when it queued none. */
function queuedDelivery(message: Message): Delivery | null {
  if (message.is_spam || message.notification_skipped) return null;
  return {
    status: 'pending',
    attempts: 0,
    last_error: null,
    next_attempt_at: message.created_at,
    sent_at: null,
  };
}

/**
 * The columns a card shows. Realtime leaves out values too large for its payload; a payload
 * without all of these is read back before it is shown.
 */
const SHOWN_COLUMNS = [
  'id',
  'form_id',
  'name',
  'email',
  'message',
  'data',
  'is_spam',
  'created_at',
];

/** The new message as the payload and the cache tell it; null for an incomplete payload. */
function insertedMessage(client: QueryClient, change: RowChange): Message | null {
  if (!SHOWN_COLUMNS.every((column) => column in change.new)) return null;
  try {
    const message = toMessage({ ...messageColumns(change.new), form: null, delivery: null });
    return {
      ...message,
      form: cachedForm(client, message.form_id),
      delivery: queuedDelivery(message),
    };
  } catch {
    return null;
  }
}

/** An incomplete payload's message, read back with its embeds; the payload alone if that fails. */
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

/**
 * Reads the message back and fills in its form, delivery and files; removes it when it is not
 * there (deleted again, or not the reader's). A failed read leaves it as the payload told it.
 */
async function completeInserted(client: QueryClient, id: string, change: RowChange): Promise<void> {
  let found: Map<string, Message>;
  try {
    found = await readBatched(id);
  } catch {
    return;
  }
  const row = found.get(id);
  if (!row) {
    removeCachedMessages(client, [id]);
    return;
  }
  const patch: Partial<Message> = { delivery: row.delivery, files: row.files };
  if (row.form) patch.form = row.form;
  completeCachedMessages(client, new Map([[id, patch]]));
  // Only now is it known to have files: it joins the lists of messages with files.
  if (row.files.length > 0) {
    applyEntryChange(
      client,
      { ...change, new: { ...change.new, files: row.files } },
      { ...row, arrivedLive: true },
    );
  }
}

/**
 * Applies one change to the cache; an insert is in the cached lists when this returns. The
 * promise settles once the background read-back (if any) has been merged.
 */
export function applyMessagesChange(client: QueryClient, change: RowChange): Promise<void> {
  let readBack: Promise<void> = Promise.resolve();
  if (change.eventType !== 'INSERT') {
    applyEntryChange(client, change);
  } else {
    const message = insertedMessage(client, change);
    if (message) {
      applyEntryChange(client, change, { ...message, arrivedLive: true });
      // Spam has nothing left to learn once the form is known (it keeps no files); any other
      // message may have files, which no payload carries.
      if (!message.form || !message.is_spam)
        readBack = completeInserted(client, message.id, change);
    } else {
      readBack = readInserted(change).then((row) => {
        // Null: deleted again before it could be read, or not the reader's.
        if (row) {
          const read = { ...change, new: { ...change.new, files: row.files } };
          applyEntryChange(client, read, { ...row, arrivedLive: true });
        }
      });
    }
  }
  countsChanged(client);
  return readBack;
}

export const messagesLiveBindings: readonly LiveBinding[] = [
  {
    table: 'entries',
    queryKey: messagesKeys.all,
    apply: (client, change) => void applyMessagesChange(client, change),
  },
];
