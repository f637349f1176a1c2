// Pure merging of one realtime row change into cached query data: a plain list, or the pages of
// an infinite query. Used by the features' realtime bindings; kept free of React and supabase-js.
import type { InfiniteData } from '@tanstack/react-query';

type ChangeEvent = 'INSERT' | 'UPDATE' | 'DELETE';

/** One change of a row, as Realtime reports it: `new` for INSERT/UPDATE, `old` (key) for DELETE. */
export interface RowChange {
  table: string;
  eventType: ChangeEvent;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
}

export interface Row {
  id: string;
}

export interface MergeRules<T extends Row> {
  /** Whether a row belongs in this list (a filter or view); a row that no longer does leaves it. */
  include?: (row: T) => boolean;
  /** Order of the list; new rows are placed by it. Defaults to "new rows first". */
  compare?: (a: T, b: T) => number;
}

/** The id of the row a change is about. */
export function changedId(change: RowChange): string | undefined {
  const id = change.eventType === 'DELETE' ? change.old.id : change.new.id;
  return typeof id === 'string' ? id : undefined;
}

/** The changed row merged over what the cache already knew of it (payloads may lack columns). */
function mergedRow<T extends Row>(known: T | undefined, change: RowChange): T {
  return { ...(known ?? {}), ...change.new } as unknown as T;
}

function place<T extends Row>(rows: T[], row: T, compare?: (a: T, b: T) => number): T[] {
  if (!compare) return [row, ...rows];
  const at = rows.findIndex((other) => compare(row, other) < 0);
  return at === -1 ? [...rows, row] : [...rows.slice(0, at), row, ...rows.slice(at)];
}

/**
 * Returns the list with the change applied (a new array), or the same list when the change does
 * not concern it. `undefined` (nothing cached yet) stays `undefined`: the first fetch will see it.
 */
export function mergeIntoList<T extends Row>(
  rows: T[] | undefined,
  change: RowChange,
  rules: MergeRules<T> = {},
): T[] | undefined {
  if (!rows) return rows;
  const id = changedId(change);
  if (!id) return rows;
  const index = rows.findIndex((row) => row.id === id);
  if (change.eventType === 'DELETE') {
    return index === -1 ? rows : rows.filter((row) => row.id !== id);
  }
  const row = mergedRow(index === -1 ? undefined : rows[index], change);
  const included = rules.include ? rules.include(row) : true;
  const without = index === -1 ? rows : rows.filter((other) => other.id !== id);
  if (!included) return index === -1 ? rows : without;
  if (index !== -1 && !rules.compare) return rows.map((other) => (other.id === id ? row : other));
  return place(without, row, rules.compare);
}

/**
 * The same for an infinite query's pages: updates and deletes reach the page holding the row; a
 * row new to the list joins the first page (newest-first feeds), placed by `compare`.
 */
export function mergeIntoPages<T extends Row>(
  data: InfiniteData<T[], unknown> | undefined,
  change: RowChange,
  rules: MergeRules<T> = {},
): InfiniteData<T[], unknown> | undefined {
  if (!data || data.pages.length === 0) return data;
  const id = changedId(change);
  if (!id) return data;
  const pageIndex = data.pages.findIndex((page) => page.some((row) => row.id === id));
  if (change.eventType === 'DELETE') {
    if (pageIndex === -1) return data;
    return {
      ...data,
      pages: data.pages.map((page, i) =>
        i === pageIndex ? page.filter((row) => row.id !== id) : page,
      ),
    };
  }
  if (pageIndex !== -1) {
    const pages = data.pages.map((page, i) =>
      i === pageIndex ? (mergeIntoList(page, change, { include: rules.include }) ?? page) : page,
    );
    return { ...data, pages };
  }
  const row = mergedRow<T>(undefined, change);
  if (rules.include && !rules.include(row)) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: [place(first, row, rules.compare), ...rest] };
}
