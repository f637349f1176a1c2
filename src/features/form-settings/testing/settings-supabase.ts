// A test double of src/lib/supabase for the autoresponder and retention settings' component tests:
// in-memory `form_autoresponders` and `form_retention` tables, keyed by form, reached through the
// supabase-js calls the fetchers make (select + eq + maybeSingle, upsert, delete), and the form's
// `entries` (their dates only) for the head count retention asks with (select with
// { count, head } + eq + lt on created_at). A test file opts in with
//   vi.mock('../../../lib/supabase', () => import('../testing/settings-supabase'));
// and prepares the data with resetSettingsBackend() before each test.
import { vi } from 'vitest';
import { requestControls, type Result } from '../../../components/testing/request-controls';

type Table = 'form_autoresponders' | 'form_retention';
type Op = 'select' | 'upsert' | 'delete' | 'count';
type Row = Record<string, unknown>;
/** A stored message, as far as the retention count reads it. */
export interface EntryRow {
  form_id: string;
  created_at: string;
}

export const SETTINGS_FORM_ID = '00000000-0000-4000-9000-00000000bbbb';

type Initial = Partial<Record<Table, Row[]>> & { entries?: EntryRow[] };

function createBackend(initial: Initial) {
  const tables: Record<Table, Row[]> = {
    form_autoresponders: [...(initial.form_autoresponders ?? [])],
    form_retention: [...(initial.form_retention ?? [])],
  };
  const entries = [...(initial.entries ?? [])];
  const { settle, controls } = requestControls<Op>();
  const calls = {
    upsert: vi.fn((_table: Table, _row: Row) => undefined),
    delete: vi.fn((_table: Table, _formId: unknown) => undefined),
    count: vi.fn((_filters: { formId: unknown; before?: unknown }) => undefined),
  };

  /** `from('entries').select('id', { count: 'exact', head: true }).eq('form_id', …).lt(…)`. */
  function entriesCount() {
    let formId: unknown;
    let before: string | undefined;
    const builder = {
      select: (_columns: string, options?: { count?: string; head?: boolean }) => {
        if (options?.count !== 'exact' || !options.head)
          throw new Error('settings double: entries are only counted, with a head request');
        return builder;
      },
      eq: (column: string, value: unknown) => {
        if (column !== 'form_id') throw new Error(`settings double: unexpected eq ${column}`);
        formId = value;
        return builder;
      },
      lt: (column: string, value: string) => {
        if (column !== 'created_at') throw new Error(`settings double: unexpected lt ${column}`);
        before = value;
        return builder;
      },
      then: <T>(ok: (result: Result) => T, fail?: (reason: unknown) => T) =>
        settle('count', () => {
          calls.count(before === undefined ? { formId } : { formId, before });
          const count = entries.filter(
            (e) =>
              e.form_id === formId &&
              (before === undefined || Date.parse(e.created_at) < Date.parse(before)),
          ).length;
          return { data: null, error: null, count } as Result;
        }).then(ok, fail),
    };
    return builder;
  }
  let clock = 0;

  function query(table: Table) {
    let op: Op = 'select';
    let payload: Row = {};
    let formId: unknown;
    let single = false;
    const current = () => tables[table].find((r) => r.form_id === formId) ?? null;

    function run(): Result {
      if (op === 'select') return { data: current(), error: null };
      if (op === 'upsert') {
        calls.upsert(table, payload);
        clock += 1;
        const row = {
          ...current(),
          ...payload,
          updated_at: new Date(Date.UTC(2026, 10, 24, 12, clock)).toISOString(),
        };
        tables[table] = [...tables[table].filter((r) => r.form_id !== payload.form_id), row];
        return { data: single ? row : [row], error: null };
      }
      calls.delete(table, formId);
      tables[table] = tables[table].filter((r) => r.form_id !== formId);
      return { data: null, error: null };
    }

    const builder = {
      select: () => builder,
      upsert: (row: Row) => ((op = 'upsert'), (payload = row), (formId = row.form_id), builder),
      delete: () => ((op = 'delete'), builder),
      eq: (_column: 'form_id', value: unknown) => ((formId = value), builder),
      maybeSingle: () => builder,
      single: () => ((single = true), builder),
      then: <T>(ok: (result: Result) => T, fail?: (reason: unknown) => T) =>
        settle(op, run).then(ok, fail),
    };
    return builder;
  }

  return {
    tables,
    entries,
    calls,
    ...controls,
    from: (table: string) => {
      if (table === 'entries') return entriesCount();
      if (!(table in tables)) throw new Error(`settings double: unexpected table ${table}`);
      return query(table as Table);
    },
  };
}

export type SettingsBackend = ReturnType<typeof createBackend>;

let active: SettingsBackend = createBackend({});

/** The client the app modules import; every call reaches the backend of the current test. */
export const supabase = {
  from: (table: string) => active.from(table),
};

export function resetSettingsBackend(initial: Initial = {}) {
  active = createBackend(initial);
  return active;
}
