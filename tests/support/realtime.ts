// Realtime helpers for integration tests: subscribe as the dashboard does (both tables, filtered
// on an owner) and collect what arrives, waiting for a change that matches.
import type {
  RealtimeChannel,
  RealtimePostgresChangesPayload,
  SupabaseClient,
} from '@supabase/supabase-js';

export type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

/** The id of the row a change is about. */
export const idOf = (change: Change) =>
  ((change.eventType === 'DELETE' ? change.old : change.new) as { id?: string }).id;

/** Collects the changes one client receives; waits for one matching a predicate. */
export class Changes {
  readonly seen: Change[] = [];
  private waiters: { match: (c: Change) => boolean; resolve: (c: Change) => void }[] = [];

  push(change: Change) {
    this.seen.push(change);
    for (const waiter of this.waiters.filter((w) => w.match(change))) waiter.resolve(change);
    this.waiters = this.waiters.filter((w) => !w.match(change));
  }

  waitFor(match: (c: Change) => boolean, timeoutMs = 5000): Promise<Change> {
    const found = this.seen.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('change did not arrive')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (change) => {
          clearTimeout(timer);
          resolve(change);
        },
      });
    });
  }
}

/**
 * Subscribes to `entries` and `forms` with the filter `user_id=eq.<ownerId>`, as the dashboard
 * does; resolves once the channel is joined and its postgres_changes bindings are live.
 */
export function subscribeAsDashboard(client: SupabaseClient, ownerId: string, into: Changes) {
  return new Promise<RealtimeChannel>((resolve, reject) => {
    let channel = client.channel(`live:${ownerId}:${Math.random()}`);
    for (const table of ['entries', 'forms']) {
      channel = channel.on(
        'postgres_changes',
        { event: '*', schema: 'public', table, filter: `user_id=eq.${ownerId}` },
        (payload: Change) => into.push(payload),
      );
    }
    let joined = false;
    let ready = false;
    channel
      .on('system', {}, (message: { extension?: string; status?: string; message?: string }) => {
        if (message.extension !== 'postgres_changes') return;
        if (message.status !== 'ok') return reject(new Error(message.message));
        ready = true;
        if (joined) resolve(channel);
      })
      .subscribe((status, err) => {
        if (status === 'SUBSCRIBED') {
          joined = true;
          if (ready) resolve(channel);
        } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
          reject(err ?? new Error(status));
        }
      });
  });
}

/**
 * Subscribes `client` to one table's changes (with `filter`, or all rows when none); resolves once
 * the channel is joined and its postgres_changes subscription is live.
 */
export function listenToTable<T extends Record<string, unknown>>(
  client: SupabaseClient,
  name: string,
  table: string,
  filter: string | undefined,
  into: RealtimePostgresChangesPayload<T>[],
) {
  return new Promise<RealtimeChannel>((resolve, reject) => {
    let joined = false;
    let ready = false;
    const channel = client
      .channel(name)
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table, ...(filter ? { filter } : {}) },
        (payload: RealtimePostgresChangesPayload<T>) => into.push(payload),
      )
      .on('system', {}, (message: { extension?: string; status?: string; message?: string }) => {
        if (message.extension !== 'postgres_changes') return;
        if (message.status !== 'ok') return reject(new Error(`${name}: ${message.message}`));
        ready = true;
        if (joined) resolve(channel);
      })
      .subscribe((status, err) => {
        if (status === 'SUBSCRIBED') {
          joined = true;
          if (ready) resolve(channel);
        } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
          reject(err ?? new Error(`${name}: ${status}`));
      });
  });
}
