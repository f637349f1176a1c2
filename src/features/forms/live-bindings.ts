// How realtime changes reach the forms feature's cache: a form created, edited or deleted in
// another tab is merged into the list at once; any change to the owner's entries (a message
// arrives, is read, moved to spam or deleted) makes the message counts stale, so they are read
// again, once per burst (refetch-soon.ts).
import type { LiveBinding } from '../../lib/live-sync';
import { refetchSoon } from '../../lib/refetch-soon';
import { formsKeys } from './api/get-forms';
import { applyFormChange } from './forms-cache';

export const formsLiveBindings: readonly LiveBinding[] = [
  { table: 'forms', queryKey: formsKeys.list(), apply: applyFormChange },
  {
    table: 'entries',
    queryKey: formsKeys.counts(),
    // Counts are aggregates: recounting is simpler and surer than adjusting them per event.
    apply: (client) => refetchSoon(client, formsKeys.counts()),
  },
];
