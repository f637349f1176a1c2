// The dashboard's one realtime subscription: every change to the signed-in owner's rows of the
// bound tables is merged into the query cache as it happens, and the bound queries (and any query
// that failed meanwhile) are refetched after a (re)connect, when changes may have been missed.
// Its status is what the live indicator shows, told truthfully: 'offline' while the browser is
// offline or the API cannot be reached (connection.ts), 'reconnecting' while the channel is down
// and being retried, 'live' only while it is joined.
//
// Each binding subscribes with a filter on the owner (`user_id=eq.<uid>`): Realtime then checks
// only this owner's changes against RLS, instead of every change for every subscriber (measured:
// unfiltered subscriptions collapse at 60 changes/s with 100 owners).
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { connection } from './connection';
import { supabase } from './supabase';
import type { RowChange } from './merge-change';

export interface LiveBinding {
  /** A table in the `supabase_realtime` publication with a `user_id` owner column. */
  table: string;
  /** Merges one change into the cache (setQueryData / invalidateQueries). */
  apply: (client: QueryClient, change: RowChange) => void;
  /** Refetched after every (re)connect. */
  queryKey: QueryKey;
}

/**
 * `connecting` until the first join, `live` while joined, `reconnecting` while the channel is
 * down and being retried, `offline` while the browser is offline or the API unreachable.
 */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** The channel's own state: what `LiveStatus` says when the connection itself is fine. */
type ChannelStatus = Exclude<LiveStatus, 'offline'>;

function toRowChange(payload: RealtimePostgresChangesPayload<Record<string, unknown>>): RowChange {
  return {
    table: payload.table,
    eventType: payload.eventType,
    new: (payload.new ?? {}) as Record<string, unknown>,
    old: (payload.old ?? {}) as Record<string, unknown>,
  };
}

/**
 * Subscribes while `userId` is set. `bindings` should be stable (module constants); the channel
 * is opened in the effect and removed in its cleanup.
 */
export function useLiveSync(
  userId: string | undefined,
  bindings: readonly LiveBinding[],
): LiveStatus {
  const client = useQueryClient();
  const [status, setStatus] = useState<ChannelStatus>('connecting');
  const reachable = useSyncExternalStore(
    connection.subscribe,
    () => connection.isOnline(),
    () => true,
  );
  const bindingsRef = useRef(bindings);
  useEffect(() => {
    bindingsRef.current = bindings;
  });
  const tables = [...new Set(bindings.map((binding) => binding.table))].sort().join(',');

  useEffect(() => {
    if (!userId || !tables) return;
    let joinedBefore = false;
    // Whether the channel failed since its last join: changes may have been missed meanwhile.
    let troubleSinceJoin = false;
    let removed = false;
    let channel = supabase.channel(`live:${userId}`);
    for (const table of tables.split(',')) {
      channel = channel.on(
        'postgres_changes',
        { event: '*', schema: 'public', table, filter: `user_id=eq.${userId}` },
        (payload: RealtimePostgresChangesPayload<Record<string, unknown>>) => {
          const change = toRowChange(payload);
          for (const binding of bindingsRef.current) {
            if (binding.table === change.table) binding.apply(client, change);
          }
        },
      );
    }
    channel.subscribe((state) => {
      if (removed) return;
      if (state === 'SUBSCRIBED') {
        // Joined: the API answers.
        connection.report(true);
        // Changes made while the socket was down were never sent: read the bound queries again,
        // and whatever failed while the API was away.
        if (joinedBefore || troubleSinceJoin) {
          for (const binding of bindingsRef.current) {
            void client.invalidateQueries({ queryKey: binding.queryKey });
          }
          void client.refetchQueries({
            type: 'active',
            predicate: (query) => query.state.status === 'error',
          });
        }
        joinedBefore = true;
        troubleSinceJoin = false;
        setStatus('live');
      } else if (state === 'CHANNEL_ERROR' || state === 'TIMED_OUT' || state === 'CLOSED') {
        // The client retries by itself (socket reconnect, channel rejoin).
        troubleSinceJoin = true;
        setStatus('reconnecting');
        // Is it the API that is gone, or only the socket? The indicator says which.
        void connection.check();
      }
    });
    return () => {
      removed = true;
      void supabase.removeChannel(channel);
      setStatus('connecting');
    };
  }, [client, userId, tables]);

  return reachable ? status : 'offline';
}
