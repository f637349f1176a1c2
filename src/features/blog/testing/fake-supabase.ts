// A stand-in for the Supabase client's query builder over an in-memory blog_posts table, for
// component tests: it applies eq filters, ordering and maybeSingle like PostgREST would.
import type { BlogPost } from '../types';

export type BlogRow = BlogPost & { published: boolean };

interface Query {
  table: string;
  columns: string;
  filters: [string, unknown][];
}

export const fakeDb = {
  rows: [] as BlogRow[],
  /** When set, every query answers with this PostgREST-style error. */
  failWith: null as string | null,
  queries: [] as Query[],
  reset(rows: BlogRow[] = []) {
    this.rows = rows;
    this.failWith = null;
    this.queries = [];
  },
};

type Result = { data: unknown; error: { message: string } | null };

function run(query: Query, orders: [string, boolean][]): Record<string, unknown>[] {
  if (query.table !== 'blog_posts') throw new Error(`unexpected table ${query.table}`);
  const rows = fakeDb.rows.filter((row) =>
    query.filters.every(
      ([column, value]) => (row as unknown as Record<string, unknown>)[column] === value,
    ),
  ) as unknown as Record<string, unknown>[];
  const sorted = [...rows].sort((a, b) => {
    for (const [column, ascending] of orders) {
      const x = a[column] as string | number;
      const y = b[column] as string | number;
      if (x < y) return ascending ? -1 : 1;
      if (x > y) return ascending ? 1 : -1;
    }
    return 0;
  });
  const columns = query.columns.split(',').map((c) => c.trim());
  return sorted.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])));
}

function builder(table: string) {
  const query: Query = { table, columns: '*', filters: [] };
  const orders: [string, boolean][] = [];
  fakeDb.queries.push(query);
  const answer = (single: boolean): Promise<Result> => {
    if (fakeDb.failWith)
      return Promise.resolve({ data: null, error: { message: fakeDb.failWith } });
    const rows = run(query, orders);
    return Promise.resolve({ data: single ? (rows[0] ?? null) : rows, error: null });
  };
  const api = {
    select(columns: string) {
      query.columns = columns;
      return api;
    },
    eq(column: string, value: unknown) {
      query.filters.push([column, value]);
      return api;
    },
    order(column: string, options?: { ascending?: boolean }) {
      orders.push([column, options?.ascending ?? true]);
      return api;
    },
    maybeSingle: () => answer(true),
    then<A, B>(onFulfilled: (value: Result) => A, onRejected?: (reason: unknown) => B) {
      return answer(false).then(onFulfilled, onRejected);
    },
  };
  return api;
}

export const fakeSupabase = { from: builder };
