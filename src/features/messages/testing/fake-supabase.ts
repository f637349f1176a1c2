// A stand-in for src/lib/supabase in the inbox's component tests: an in-memory `entries` table
// (with the form and delivery embeds) behind the slice of the query builder the inbox uses. It
// applies the filters, order, keyset `or=`, `ilike` and limits as PostgREST would, and records
// every request so tests can check what was asked.
//   vi.mock('../../../lib/supabase', () => import('../testing/fake-supabase'));
import { searchTextOf } from '../message-query';
import type { Message } from '../types';

export interface RecordedQuery {
  table: string;
  method: 'select' | 'update' | 'delete' | 'rpc';
  filters: [string, string, unknown][];
  or?: string;
  limit?: number;
  values?: Record<string, unknown>;
  head?: boolean;
}

export const fakeInbox = {
  rows: [] as Message[],
  queries: [] as RecordedQuery[],
  /** When set, reads of `entries` fail with this message. */
  failReads: null as string | null,
  /** When set, writes fail with this message. */
  failWrites: null as string | null,
  /** Rows of `form_retention` (the inbox's retention notice). */
  retention: [] as { form_id: string; mode: string; days: number | null }[],
  reset(rows: Message[] = []) {
    this.rows = rows.map((row) => ({ ...row }));
    this.retention = [];
    this.queries = [];
    this.failReads = null;
    this.failWrites = null;
  },
  /** The recorded requests to `table` of one kind. */
  requests(table: string, method: RecordedQuery['method']) {
    return this.queries.filter((query) => query.table === table && query.method === method);
  },
};

type Result = { data: unknown; error: { message: string } | null; count?: number | null };

function micros(timestamp: string) {
  return (
    Date.parse(timestamp) * 1000 +
    Number((/\.\d{3}(\d{1,3})/.exec(timestamp)?.[1] ?? '').padEnd(3, '0'))
  );
}

function unescapeLike(pattern: string): string {
  return pattern.replace(/^%|%$/g, '').replace(/\\(.)/g, '$1').toLowerCase();
}

function matches(row: Message, [column, op, value]: [string, string, unknown]): boolean {
  const cell = (row as unknown as Record<string, unknown>)[column];
  switch (op) {
    case 'eq':
      return cell === value;
    case 'is':
      return cell === value;
    case 'in':
      return (value as unknown[]).includes(cell);
    case 'ilike':
      return searchTextOf(row).includes(unescapeLike(String(value)));
    default:
      throw new Error(`fake-supabase: unsupported filter ${op}`);
  }
}

/** The keyset filter the inbox sends: strictly before (created_at, id). */
function beforeCursor(row: Message, or: string): boolean {
  const match = /^created_at\.lt\.(.+?),and\(created_at\.eq\.(.+?),id\.lt\.(.+)\)$/.exec(or);
  if (!match) throw new Error(`fake-supabase: unsupported or=${or}`);
  const [, at, , id] = match;
  const a = micros(row.created_at);
  const b = micros(at);
  return a < b || (a === b && row.id < id);
}

function entriesBuilder(table: string) {
  const query: RecordedQuery = { table, method: 'select', filters: [] };
  fakeInbox.queries.push(query);

  const selected = (): Message[] => {
    let rows = fakeInbox.rows.filter((row) =>
      query.filters.every((filter) => matches(row, filter)),
    );
    if (query.or) rows = rows.filter((row) => beforeCursor(row, query.or!));
    rows.sort((a, b) => micros(b.created_at) - micros(a.created_at) || (a.id < b.id ? 1 : -1));
    return query.limit === undefined ? rows : rows.slice(0, query.limit);
  };

  const answer = (single: boolean): Result => {
    if (query.method !== 'select' && fakeInbox.failWrites) {
      return { data: null, error: { message: fakeInbox.failWrites } };
    }
    if (query.method === 'select' && fakeInbox.failReads) {
      return { data: null, error: { message: fakeInbox.failReads } };
    }
    const rows = selected();
    if (query.method === 'update') {
      for (const row of rows) Object.assign(row, query.values);
      return { data: null, error: null };
    }
    if (query.method === 'delete') {
      fakeInbox.rows = fakeInbox.rows.filter((row) => !rows.includes(row));
      return { data: null, error: null };
    }
    if (query.head) return { data: null, error: null, count: rows.length };
    // As PostgREST may: the unique to-one delivery embed comes as an array.
    const rendered = rows.map(({ arrivedLive: _live, delivery, ...row }) => ({
      ...row,
      delivery: delivery ? [delivery] : [],
    }));
    return { data: single ? (rendered[0] ?? null) : rendered, error: null };
  };

  const api = {
    select(_columns: string, options?: { count?: string; head?: boolean }) {
      query.head = options?.head;
      return api;
    },
    update(values: Record<string, unknown>) {
      query.method = 'update';
      query.values = values;
      return api;
    },
    delete() {
      query.method = 'delete';
      return api;
    },
    eq: (column: string, value: unknown) => (query.filters.push([column, 'eq', value]), api),
    is: (column: string, value: unknown) => (query.filters.push([column, 'is', value]), api),
    in: (column: string, value: unknown[]) => (query.filters.push([column, 'in', value]), api),
    ilike: (column: string, value: string) => (query.filters.push([column, 'ilike', value]), api),
    or(filter: string) {
      query.or = filter;
      return api;
    },
    order: () => api,
    limit(count: number) {
      query.limit = count;
      return api;
    },
    abortSignal: () => api,
    maybeSingle: () => Promise.resolve(answer(true)),
    then<A, B>(onFulfilled: (value: Result) => A, onRejected?: (reason: unknown) => B) {
      return Promise.resolve(answer(false)).then(onFulfilled, onRejected);
    },
  };
  return api;
}

function deliveriesBuilder() {
  const query: RecordedQuery = { table: 'email_deliveries', method: 'select', filters: [] };
  fakeInbox.queries.push(query);
  const api = {
    select: () => api,
    in: (column: string, value: unknown[]) => (query.filters.push([column, 'in', value]), api),
    abortSignal: () => api,
    then<A, B>(onFulfilled: (value: Result) => A, onRejected?: (reason: unknown) => B) {
      const ids = (query.filters[0]?.[2] ?? []) as string[];
      const data = fakeInbox.rows
        .filter((row) => ids.includes(row.id) && row.delivery)
        .map((row) => ({ entry_id: row.id, ...row.delivery }));
      return Promise.resolve({ data, error: null }).then(onFulfilled, onRejected);
    },
  };
  return api;
}

function counts() {
  const byForm = new Map<
    string,
    { form_id: string; total: number; unread: number; spam: number }
  >();
  for (const row of fakeInbox.rows) {
    const entry = byForm.get(row.form_id) ?? { form_id: row.form_id, total: 0, unread: 0, spam: 0 };
    if (row.is_spam) entry.spam += 1;
    else {
      entry.total += 1;
      if (row.read_at === null) entry.unread += 1;
    }
    byForm.set(row.form_id, entry);
  }
  return [...byForm.values()];
}

export const supabase = {
  from(table: string) {
    if (table === 'entries') return entriesBuilder(table);
    if (table === 'email_deliveries') return deliveriesBuilder();
    if (table === 'form_retention')
      return { select: () => Promise.resolve({ data: fakeInbox.retention, error: null }) };
    throw new Error(`fake-supabase: unexpected table ${table}`);
  },
  rpc(name: string) {
    if (name !== 'form_message_counts') throw new Error(`fake-supabase: unexpected rpc ${name}`);
    fakeInbox.queries.push({ table: name, method: 'rpc', filters: [] });
    const result = Promise.resolve({ data: counts(), error: null });
    return Object.assign(result, { abortSignal: () => result });
  },
};
