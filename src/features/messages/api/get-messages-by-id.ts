// Reads messages by id in one request, with their form name and delivery: how messages that just
// arrived over Realtime are completed (a payload carries neither embed). Absent ids are gone or
// not the reader's.
import { supabase } from '../../../lib/supabase';
import { toMessage } from '../message-fields';
import { MESSAGE_COLUMNS, isUuid } from '../message-query';
import type { Message } from '../types';

/** Ids per request, to keep the URL short. */
const IDS_PER_REQUEST = 100;

export async function getMessagesById(ids: readonly string[]): Promise<Map<string, Message>> {
  const valid = [...new Set(ids)].filter(isUuid);
  const found = new Map<string, Message>();
  for (let start = 0; start < valid.length; start += IDS_PER_REQUEST) {
    const { data, error } = await supabase
      .from('entries')
      .select(MESSAGE_COLUMNS)
      .in('id', valid.slice(start, start + IDS_PER_REQUEST));
    if (error) throw error;
    for (const row of (data ?? []) as unknown[]) {
      const message = toMessage(row);
      found.set(message.id, message);
    }
  }
  return found;
}
