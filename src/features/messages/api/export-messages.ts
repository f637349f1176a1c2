// Reads every message of a list for the CSV export — not only the loaded pages — in keyset
// chunks of EXPORT_CHUNK_SIZE rows, the most the REST API returns per request.
import { EXPORT_CHUNK_SIZE, cursorOf } from '../message-query';
import type { Message, MessageFilter } from '../types';
import { fetchMessages, messagesQuery } from './get-messages';

export async function getAllMessages(
  filter: MessageFilter,
  options: { onProgress?: (loaded: number) => void; signal?: AbortSignal } = {},
): Promise<Message[]> {
  const all: Message[] = [];
  let cursor = null;
  for (;;) {
    const chunk = await fetchMessages(
      messagesQuery(filter, cursor, EXPORT_CHUNK_SIZE, options.signal),
    );
    all.push(...chunk);
    options.onProgress?.(all.length);
    if (chunk.length < EXPORT_CHUNK_SIZE) return all;
    cursor = cursorOf(chunk[chunk.length - 1]);
  }
}
