// How the cached forms list and message counts change: the same rules for a realtime change from
// another tab and for this tab's own create / edit / delete, so both end in the same list.
import type { QueryClient } from '@tanstack/react-query';
import { mergeIntoList, type RowChange } from '../../lib/merge-change';
import { formsKeys, type Form } from './api/get-forms';

/** The list's order, as getForms reads it: newest first, then by id (descending). */
export function compareForms(a: Form, b: Form): number {
  // As instants: a REST answer and a Realtime payload may print one timestamp differently.
  const byTime = Date.parse(b.created_at) - Date.parse(a.created_at);
  if (byTime) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The forms list with one change applied (same array when it does not concern the list). */
export function mergeFormChange(list: Form[] | undefined, change: RowChange): Form[] | undefined {
  return mergeIntoList<Form>(list, change, { compare: compareForms });
}

/** Applies a change to the cached list, if one is cached. */
export function applyFormChange(client: QueryClient, change: RowChange): void {
  client.setQueryData<Form[]>(formsKeys.list(), (list) => mergeFormChange(list, change));
}

/** A form this tab wrote, as the change Realtime will also report for it. */
export function savedForm(form: Form): RowChange {
  return { table: 'forms', eventType: 'UPDATE', new: { ...form }, old: {} };
}

export function removedForm(id: string): RowChange {
  return { table: 'forms', eventType: 'DELETE', new: {}, old: { id } };
}
