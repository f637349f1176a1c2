// A test double of src/lib/supabase for the forms feature's component tests: an in-memory forms
// table, `form_message_counts()`, `resend_target_confirmation()`, `confirm_target_email()`,
// `target_confirmation_details()`, `held_notification_counts()` and `send_held_notifications()`,
// the signed-in session's address and the forms function's `_mail` route,
// reached through the same supabase-js calls the fetchers make (`from('forms')` select / insert /
// update / delete, `rpc`, `auth.getSession`, `functions.invoke`). A test file opts in with
//   vi.mock('../../../lib/supabase', () => import('../testing/forms-supabase'));
// and prepares the data with resetFormsBackend() before each test.
import { vi } from 'vitest';
import type { Form } from '../api/get-forms';
import type { FormCounts } from '../api/get-form-counts';
import {
  pgError,
  requestControls,
  type Result,
} from '../../../components/testing/request-controls';
import { OWNER_ID } from './fixtures';

export type Operation = 'select' | 'insert' | 'update' | 'delete' | 'rpc';

export { pgError, requestControls } from '../../../components/testing/request-controls';
export type { FakeError, Result } from '../../../components/testing/request-controls';

function createBackend(initial: { forms?: Form[]; counts?: FormCounts[] }) {
  const state = {
    forms: [...(initial.forms ?? [])],
    counts: [...(initial.counts ?? [])],
    /** What `resend_target_confirmation` answers (the database's JSON). */
    resendAnswer: { status: 'requested' } as Record<string, unknown>,
    /** What `confirm_target_email` answers. */
    confirmAnswer: {
      status: 'confirmed',
      email: 'sales@elsewhere.example',
      form: 'Sales leads',
    } as Record<string, unknown>,
    /** What `target_confirmation_details` answers. */
    detailsAnswer: {
      status: 'pending',
      email: 'sales@elsewhere.example',
      form: 'Sales leads',
    } as Record<string, unknown>,
    /** `held_notification_counts()`: forms with messages received before their confirmation. */
    held: [] as { form_id: string; held: number }[],
    /** What `send_held_notifications` answers. */
    sendHeldAnswer: { status: 'queued', queued: 0, remaining: 0 } as Record<string, unknown>,
    /** The signed-in account's confirmed address (null: none known). */
    accountEmail: null as string | null,
  };
  const { settle, controls } = requestControls<Operation>();
  const calls = {
    insert: vi.fn((_row: Record<string, unknown>) => undefined),
    update: vi.fn((_id: unknown, _values: Record<string, unknown>) => undefined),
    delete: vi.fn((_id: unknown) => undefined),
    select: vi.fn(() => undefined),
    rpc: vi.fn((_name: string, _args?: Record<string, unknown>) => undefined),
    /** supabase.functions.invoke: the "send now" requests to the forms function. */
    invoke: vi.fn(async (_name: string, _options?: { body?: unknown }) => ({
      data: { ok: true },
      error: null,
    })),
  };

  function query(table: string) {
    if (table !== 'forms') throw new Error(`forms double: unexpected table ${table}`);
    let op: Operation = 'select';
    let payload: Record<string, unknown> = {};
    const filters: [string, unknown][] = [];
    let single = false;
    const matching = () =>
      state.forms.filter((f) => filters.every(([c, v]) => f[c as keyof Form] === v));

    function run(): Result {
      const now = new Date().toISOString();
      if (op === 'select') {
        calls.select();
        return { data: [...state.forms], error: null };
      }
      if (op === 'insert') {
        calls.insert(payload);
        const row = {
          user_id: OWNER_ID,
          notify_email: true,
          redirect_url: null,
          // As the database has it: only the account's own confirmed address needs no link.
          target_verified:
            state.accountEmail !== null &&
            String(payload.target_email ?? '').toLowerCase() === state.accountEmail.toLowerCase(),
          captcha_provider: null,
          captcha_site_key: null,
          ...payload,
          created_at: now,
          updated_at: now,
        } as Form;
        state.forms.unshift(row);
        return { data: single ? row : [row], error: null };
      }
      const rows = matching();
      const id = filters.find(([c]) => c === 'id')?.[1];
      if (op === 'update') {
        calls.update(id, payload);
        if (single && rows.length !== 1) {
          return {
            data: null,
            error: pgError('PGRST116', 'Cannot coerce the result to a single JSON object'),
          };
        }
        state.forms = state.forms.map((f) =>
          rows.includes(f) ? { ...f, ...payload, updated_at: now } : f,
        );
        const updated = state.forms.filter((f) => rows.some((r) => r.id === f.id));
        return { data: single ? updated[0] : updated, error: null };
      }
      calls.delete(id);
      state.forms = state.forms.filter((f) => !rows.includes(f));
      return { data: null, error: null };
    }

    const builder = {
      select: () => builder,
      insert: (row: Record<string, unknown>) => ((op = 'insert'), (payload = row), builder),
      update: (values: Record<string, unknown>) => ((op = 'update'), (payload = values), builder),
      delete: () => ((op = 'delete'), builder),
      eq: (column: string, value: unknown) => (filters.push([column, value]), builder),
      order: () => builder,
      limit: () => builder,
      single: () => ((single = true), builder),
      then: <T>(ok: (result: Result) => T, fail?: (reason: unknown) => T) =>
        settle(op, run).then(ok, fail),
    };
    return builder;
  }

  return {
    state,
    calls,
    ...controls,
    supabase: {
      from: (table: string) => query(table),
      rpc: (name: string, args?: Record<string, unknown>) => {
        calls.rpc(name, args);
        if (name === 'resend_target_confirmation') {
          const form = state.forms.find((f) => f.id === args?.p_form_id);
          return settle('rpc', () => ({
            data: { email: form?.target_email, ...state.resendAnswer },
            error: null,
          }));
        }
        if (name === 'confirm_target_email') {
          return settle('rpc', () => ({ data: { ...state.confirmAnswer }, error: null }));
        }
        if (name === 'target_confirmation_details') {
          return settle('rpc', () => ({ data: { ...state.detailsAnswer }, error: null }));
        }
        if (name === 'held_notification_counts') {
          return settle('rpc', () => ({ data: [...state.held], error: null }));
        }
        if (name === 'send_held_notifications') {
          return settle('rpc', () => {
            const form = state.forms.find((f) => f.id === args?.p_form_id);
            if (state.sendHeldAnswer.status === 'queued')
              state.held = state.held.filter((h) => h.form_id !== args?.p_form_id);
            return {
              data: { email: form?.target_email, ...state.sendHeldAnswer },
              error: null,
            };
          });
        }
        if (name !== 'form_message_counts') throw new Error(`forms double: unexpected rpc ${name}`);
        return settle('rpc', () => ({ data: [...state.counts], error: null }));
      },
    },
  };
}

export type FormsBackend = ReturnType<typeof createBackend>;

let active: FormsBackend = createBackend({});

/** The client the fetchers import; every call reaches the double of the current test. */
export const supabase = {
  from: (table: string) => active.supabase.from(table),
  rpc: (name: string, args?: Record<string, unknown>) => active.supabase.rpc(name, args),
  auth: {
    getSession: async () => {
      const email = active.state.accountEmail;
      const user = email
        ? { id: OWNER_ID, email, email_confirmed_at: '2026-01-01T00:00:00Z' }
        : null;
      return { data: { session: user ? { user } : null }, error: null };
    },
  },
  functions: {
    invoke: (name: string, options?: { body?: unknown }) => active.calls.invoke(name, options),
  },
};

export function resetFormsBackend(
  initial: {
    forms?: Form[];
    counts?: FormCounts[];
    held?: { form_id: string; held: number }[];
    accountEmail?: string | null;
  } = {},
): FormsBackend {
  active = createBackend(initial);
  active.state.held = [...(initial.held ?? [])];
  active.state.accountEmail = initial.accountEmail ?? null;
  return active;
}
