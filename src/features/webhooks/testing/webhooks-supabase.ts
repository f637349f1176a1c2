// A test double of src/lib/supabase for the webhook settings' component tests: in-memory
// `webhooks`, `webhook_deliveries` and `webhook_attempts` tables and the two owner RPCs, reached
// through the same supabase-js calls the fetchers make. Like the database's prepare_webhook(),
// switching a webhook on clears why tinyback turned it off and its count of failures. A test file opts in with
//   vi.mock('../../../lib/supabase', () => import('../testing/webhooks-supabase'));
// and prepares the data with resetWebhooksBackend() before each test.
import { vi } from 'vitest';
import type { Webhook } from '../api/get-webhooks';
import type { WebhookAttempt, WebhookDelivery } from '../api/get-webhook-deliveries';
import {
  pgError,
  requestControls,
  type Result,
} from '../../../components/testing/request-controls';

type Table = 'webhooks' | 'webhook_deliveries' | 'webhook_attempts';
type Op = 'select' | 'insert' | 'update' | 'delete' | 'rpc';
type Row = Record<string, unknown>;

export const FORM_ID = '00000000-0000-4000-9000-00000000aaaa';
let sequence = 0;
const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

export function makeWebhook(overrides: Partial<Webhook> = {}): Webhook {
  sequence += 1;
  return {
    id: uuid(sequence),
    form_id: FORM_ID,
    url: `https://hooks.example.com/${sequence}`,
    format: 'json',
    send_spam: false,
    enabled: true,
    secret: `whsec_${'ab'.repeat(32)}`,
    created_at: new Date(Date.UTC(2026, 10, 24, 10, sequence)).toISOString(),
    consecutive_failures: 0,
    disabled_at: null,
    disabled_reason: null,
    ...overrides,
  };
}

export function makeDelivery(
  webhookId: string,
  overrides: Partial<Omit<WebhookDelivery, 'log'>> = {},
): Omit<WebhookDelivery, 'log'> & { webhook_id: string } {
  sequence += 1;
  return {
    id: uuid(sequence),
    webhook_id: webhookId,
    event: 'entry.created',
    status: 'sent',
    attempts: 1,
    next_attempt_at: '2026-11-24T10:00:00Z',
    created_at: new Date(Date.UTC(2026, 10, 24, 11, sequence)).toISOString(),
    last_error: null,
    ...overrides,
  };
}

export function makeAttempt(
  deliveryId: string,
  overrides: Partial<WebhookAttempt> = {},
): WebhookAttempt {
  sequence += 1;
  return {
    id: sequence,
    delivery_id: deliveryId,
    attempted_at: '2026-11-24T11:00:00Z',
    status_code: 200,
    ok: true,
    error: null,
    response_excerpt: null,
    duration_ms: 12,
    ...overrides,
  };
}

function createBackend(initial: {
  webhooks?: Webhook[];
  deliveries?: Row[];
  attempts?: WebhookAttempt[];
}) {
  const tables: Record<Table, Row[]> = {
    webhooks: [...(initial.webhooks ?? [])] as unknown as Row[],
    webhook_deliveries: [...(initial.deliveries ?? [])],
    webhook_attempts: [...(initial.attempts ?? [])] as unknown as Row[],
  };
  const { settle, controls } = requestControls<Op>();
  const calls = {
    insert: vi.fn((_table: Table, _row: Row) => undefined),
    update: vi.fn((_table: Table, _id: unknown, _values: Row) => undefined),
    delete: vi.fn((_table: Table, _id: unknown) => undefined),
    rpc: vi.fn((_name: string, _args?: Row) => undefined),
    /** supabase.functions.invoke: the "send now" request to the forms function. */
    invoke: vi.fn(async (_name: string, _options?: { body?: unknown }) => ({
      data: { ok: true },
      error: null,
    })),
  };

  function query(table: Table) {
    let op: Op = 'select';
    let payload: Row = {};
    let single = false;
    const filters: ((row: Row) => boolean)[] = [];
    const matching = () => tables[table].filter((r) => filters.every((f) => f(r)));

    function run(): Result {
      if (op === 'select') return { data: matching(), error: null };
      if (op === 'insert') {
        calls.insert(table, payload);
        const row = { ...makeWebhook(), ...payload } as Row;
        tables[table].push(row);
        return { data: single ? row : [row], error: null };
      }
      const rows = matching();
      const id = rows[0]?.id;
      if (op === 'update') {
        calls.update(table, id, payload);
        const turnedOn = (r: Row) => table === 'webhooks' && payload.enabled === true && !r.enabled;
        tables[table] = tables[table].map((r) =>
          !rows.includes(r)
            ? r
            : turnedOn(r)
              ? {
                  ...r,
                  ...payload,
                  consecutive_failures: 0,
                  disabled_at: null,
                  disabled_reason: null,
                }
              : { ...r, ...payload },
        );
        const updated = tables[table].filter((r) => rows.some((x) => x.id === r.id));
        return { data: single ? updated[0] : updated, error: null };
      }
      calls.delete(table, id);
      tables[table] = tables[table].filter((r) => !rows.includes(r));
      return { data: rows.map((r) => ({ id: r.id })), error: null };
    }

    const builder = {
      select: () => builder,
      insert: (row: Row) => ((op = 'insert'), (payload = row), builder),
      update: (values: Row) => ((op = 'update'), (payload = values), builder),
      delete: () => ((op = 'delete'), builder),
      eq: (column: string, value: unknown) => (filters.push((r) => r[column] === value), builder),
      in: (column: string, values: unknown[]) => (
        filters.push((r) => values.includes(r[column])),
        builder
      ),
      order: () => builder,
      limit: () => builder,
      single: () => ((single = true), builder),
      then: <T>(ok: (result: Result) => T, fail?: (reason: unknown) => T) =>
        settle(op, run).then(ok, fail),
    };
    return builder;
  }

  return {
    tables,
    calls,
    ...controls,
    supabase: {
      from: (table: string) => {
        if (!(table in tables)) throw new Error(`webhooks double: unexpected table ${table}`);
        return query(table as Table);
      },
      rpc: (name: string, args?: Row) => {
        calls.rpc(name, args);
        return settle('rpc', () => {
          if (name === 'send_webhook_test') {
            const delivery = makeDelivery(String(args?.p_webhook_id), {
              event: 'test',
              status: 'pending',
              attempts: 0,
            });
            tables.webhook_deliveries.push(delivery);
            return { data: delivery.id, error: null };
          }
          if (name === 'redeliver_webhook') {
            tables.webhook_deliveries = tables.webhook_deliveries.map((d) =>
              d.id === args?.p_delivery_id ? { ...d, status: 'pending', attempts: 0 } : d,
            );
            return { data: args?.p_delivery_id, error: null };
          }
          return { data: null, error: pgError('PGRST202', `no function ${name}`) };
        });
      },
    },
  };
}

export type WebhooksBackend = ReturnType<typeof createBackend>;

let active: WebhooksBackend = createBackend({});

/** The client the app modules import; every call reaches the backend of the current test. */
export const supabase = {
  from: (table: string) => active.supabase.from(table),
  rpc: (name: string, args?: Row) => active.supabase.rpc(name, args),
  functions: {
    invoke: (name: string, options?: { body?: unknown }) => active.calls.invoke(name, options),
  },
};

export function resetWebhooksBackend(initial: Parameters<typeof createBackend>[0] = {}) {
  active = createBackend(initial);
  return active;
}
