// Reads one message by id, for the detail view when it is not in a loaded list (a deep link, or
// a message past the loaded pages). Null when it does not exist or is not the reader's.
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { isDeliveryInFlight, toMessage } from '../message-fields';
import { MESSAGE_COLUMNS, isUuid } from '../message-query';
import type { Message } from '../types';
import { DELIVERY_POLL_MS } from './get-deliveries';
import { messagesKeys } from './query-keys';

const idSchema = yup
  .string()
  .defined()
  .test('uuid', 'Unknown message.', (value) => isUuid(value));

async function getMessage(id: string, signal?: AbortSignal): Promise<Message | null> {
  // A malformed id names no message; asking the server would only earn a 400.
  if (!idSchema.isValidSync(id)) return null;
  let query = supabase.from('entries').select(MESSAGE_COLUMNS).eq('id', id);
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query.maybeSingle();
  if (error) throw error;
  return data ? toMessage(data) : null;
}

export function useMessage(id: string | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: messagesKeys.detail(id ?? ''),
    queryFn: ({ signal }) => getMessage(id ?? '', signal),
    enabled: Boolean(id) && (options.enabled ?? true),
    // Its e-mail's status is not pushed live: re-read while it may still change.
    refetchInterval: (query) =>
      query.state.data && isDeliveryInFlight(query.state.data) ? DELIVERY_POLL_MS : false,
  });
}
