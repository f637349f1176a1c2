// How many non-spam messages of the signed-in owner are unread: the badge on the Messages tab
// and beside Forms in the sidebar. Kept live by the realtime bindings, which invalidate it.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { messagesKeys } from './query-keys';

async function getUnreadCount(signal?: AbortSignal): Promise<number> {
  // A HEAD request with an exact count: no rows travel, RLS limits the count to the caller's.
  let query = supabase
    .from('entries')
    .select('id', { count: 'exact', head: true })
    .eq('is_spam', false)
    .is('read_at', null);
  if (signal) query = query.abortSignal(signal);
  const { count, error } = await query;
  if (error) throw error;
  return count ?? 0;
}

/** Unread, non-spam messages; undefined until known. */
export function useUnreadCount(): number | undefined {
  const query = useQuery({
    queryKey: messagesKeys.unread(),
    queryFn: ({ signal }) => getUnreadCount(signal),
  });
  return query.data;
}
