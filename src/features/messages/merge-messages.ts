// Pure merging of one change of an entry (from Realtime, or an optimistic update) into a cached
// inbox list (an infinite query of keyset pages) and into a cached single message. Builds on
// lib/merge-change's mergeIntoPages, with the list's own membership rule (view, form, search)
// and order (newest first).
import { replaceEqualDeep, type InfiniteData } from '@tanstack/react-query';
import { changedId, mergeIntoPages, type RowChange } from '../../lib/merge-change';
import { messageColumns } from './message-fields';
import { compareNewestFirst, matchesFilter } from './message-query';
import type { Message, MessageFilter, MessagePage } from './types';

export type MessagePages = InfiniteData<MessagePage, unknown>;

export interface MergeOutcome {
  data: MessagePages | undefined;
  /**
   * The change makes a row belong to this list, but the list never loaded it and cannot place it
   * (an older message restored from spam, say): the list should be read again.
   */
  stale: boolean;
}

function rowsOf(data: MessagePages): InfiniteData<Message[], unknown> {
  return { pages: data.pages.map((page) => page.rows), pageParams: data.pageParams };
}

/** Puts merged rows back into the pages, keeping each page's cursor; same object if unchanged. */
function withRows(
  data: MessagePages,
  before: InfiniteData<Message[], unknown>,
  after: InfiniteData<Message[], unknown> | undefined,
): MessagePages {
  if (!after || after === before) return data;
  return {
    ...data,
    pages: data.pages.map((page, i) =>
      after.pages[i] === page.rows ? page : { ...page, rows: after.pages[i] ?? [] },
    ),
  };
}

/** Whether a row sorts among the loaded rows (or the list is complete), so it should be there. */
function withinLoaded(data: MessagePages, row: Record<string, unknown>): boolean {
  const lastPage = data.pages.at(-1);
  if (!lastPage?.next) return true;
  if (typeof row.created_at !== 'string' || typeof row.id !== 'string') return true;
  const key = { created_at: row.created_at, id: row.id };
  return compareNewestFirst(key, lastPage.next) < 0;
}

function findRow(data: MessagePages, id: string): Message | undefined {
  for (const page of data.pages) {
    const row = page.rows.find((candidate) => candidate.id === id);
    if (row) return row;
  }
  return undefined;
}

/**
 * Applies a change to the list of `filter`. Membership is decided on the change's `new` row (a
 * Realtime payload carries `search_text`) over the cached row; `row` is the complete message to insert (with
 * its form and delivery), which a payload alone lacks. New rows join the first page in order.
 */
export function mergeEntryChange(
  data: MessagePages | undefined,
  change: RowChange,
  filter: MessageFilter,
  row?: Message,
): MergeOutcome {
  if (!data) return { data, stale: false };
  const id = changedId(change);
  if (!id) return { data, stale: false };
  const before = rowsOf(data);
  if (change.eventType === 'DELETE') {
    return { data: withRows(data, before, mergeIntoPages(before, change)), stale: false };
  }
  const known = findRow(data, id);
  const present = known !== undefined;
  // Judged on the row as it now is: an UPDATE's payload may leave out an unchanged large value
  // (the message), which the cached row still has.
  const included = matchesFilter(known ? { ...known, ...change.new } : change.new, filter);
  if (!present && !included) return { data, stale: false };
  if (!present && (change.eventType === 'UPDATE' || !row)) {
    // Past the loaded pages it will come with "Load more"; inside them it is missing.
    return { data, stale: withinLoaded(data, change.new) };
  }
  const merged = mergeIntoPages(
    before,
    { ...change, new: row ? { ...row } : messageColumns(change.new) },
    { include: () => included, compare: compareNewestFirst },
  );
  return { data: withRows(data, before, merged), stale: false };
}

/** Applies a change to one cached message (the detail view); a deleted message becomes null. */
export function mergeEntryDetail(
  detail: Message | null | undefined,
  change: RowChange,
): Message | null | undefined {
  if (!detail || changedId(change) !== detail.id) return detail;
  if (change.eventType === 'DELETE') return null;
  if (change.eventType === 'INSERT') return detail;
  return { ...detail, ...messageColumns(change.new) };
}

/** Every message of a list, page after page. */
export function listRows(data: MessagePages | undefined): Message[] {
  return data ? data.pages.flatMap((page) => page.rows) : [];
}

/** The list with each row named in `patches` changed by its patch; same object if none is named. */
export function withPatches(
  data: MessagePages | undefined,
  patches: ReadonlyMap<string, Partial<Message>>,
): MessagePages | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.rows.some((row) => patches.has(row.id))) return page;
    changed = true;
    return {
      ...page,
      rows: page.rows.map((row) => {
        const patch = patches.get(row.id);
        return patch ? { ...row, ...patch } : row;
      }),
    };
  });
  return changed ? { ...data, pages } : data;
}

/** Deliveries as patches of the rows they belong to. */
export function deliveryPatches(
  deliveries: ReadonlyMap<string, Message['delivery']>,
): Map<string, Partial<Message>> {
  return new Map([...deliveries].map(([id, delivery]) => [id, { delivery: delivery ?? null }]));
}

/**
 * The lists' structural sharing: every message that did not change stays the same object, matched
 * by id rather than by position (the default compares position by position, so a message arriving
 * at the top would make every row below it a new object, and every card render again).
 */
export function shareRows(previous: unknown, next: unknown): unknown {
  const before = previous as MessagePages | undefined;
  const after = next as MessagePages | undefined;
  if (!before?.pages || !after?.pages) return replaceEqualDeep(previous, next);
  const known = new Map(listRows(before).map((row) => [row.id, row]));
  let changed = before.pages.length !== after.pages.length;
  const pages = after.pages.map((page, i) => {
    const rows = page.rows.map((row) => {
      const old = known.get(row.id);
      return old ? replaceEqualDeep(old, row) : row;
    });
    const was = before.pages[i];
    const sameRows =
      was !== undefined &&
      was.rows.length === rows.length &&
      rows.every((row, j) => row === was.rows[j]);
    const next = replaceEqualDeep(was?.next, page.next);
    if (sameRows && next === was.next) return was;
    changed = true;
    return { ...page, rows: sameRows ? was.rows : rows, next };
  });
  const pageParams = replaceEqualDeep(before.pageParams, after.pageParams);
  if (!changed && pageParams === before.pageParams) return before;
  return { ...after, pages, pageParams };
}
