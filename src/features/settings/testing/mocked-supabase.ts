// Stands in for src/lib/supabase in the settings tests: the shared auth double, `rpc` (account
// deletion, and creating and revoking API keys) and an in-memory `api_keys` table read through
// `from('api_keys').select().is().order()`, as the fetchers call them. A test file opts in with
//   vi.mock('…/lib/supabase', () => import('…/features/settings/testing/mocked-supabase'));
import { vi } from 'vitest';
import { createSupabaseMock } from '../../../components/testing/supabase-mock';
import type { ApiKey } from '../api/get-api-keys';

type RpcResult = {
  data: unknown;
  error: { message: string; code?: string; hint?: string | null } | null;
};

function createDouble() {
  const base = createSupabaseMock();
  const apiKeys: ApiKey[] = [];
  let created = 0;
  /** When set, reading the keys fails with this message. */
  const listing = { failure: null as string | null, held: false };

  const rpc = vi.fn(async (fn: string, args?: Record<string, unknown>): Promise<RpcResult> => {
    if (fn === 'create_api_key') {
      created++;
      const key = `tb_live_${String(created).repeat(64).slice(0, 64)}`;
      const row: ApiKey = {
        id: `key-${created}`,
        name: String(args?.p_name),
        scope: args?.p_scope as ApiKey['scope'],
        prefix: key.slice(0, 12),
        created_at: '2026-11-24T14:47:00Z',
        last_used_at: null,
      };
      apiKeys.unshift(row);
      return { data: { ...row, key }, error: null };
    }
    if (fn === 'revoke_api_key') {
      const at = apiKeys.findIndex((k) => k.id === args?.p_id);
      if (at >= 0) apiKeys.splice(at, 1);
      return { data: at >= 0, error: null };
    }
    return { data: null, error: null };
  });

  const from = vi.fn((table: string) => {
    if (table !== 'api_keys') throw new Error(`settings double: unexpected table ${table}`);
    const query = {
      select: () => query,
      is: () => query,
      order: () =>
        listing.held
          ? new Promise<never>(() => undefined)
          : Promise.resolve(
              listing.failure
                ? { data: null, error: { message: listing.failure } }
                : { data: [...apiKeys], error: null },
            ),
    };
    return query;
  });

  return { ...base, rpc, from, apiKeys, listing };
}

export type SettingsSupabaseDouble = ReturnType<typeof createDouble>;

let active = createDouble();

export const supabase = {
  get auth() {
    return active.supabase.auth;
  },
  // Called with the arguments only when there are some, as the fetchers call it.
  rpc: (fn: string, args?: Record<string, unknown>) =>
    args === undefined ? active.rpc(fn) : active.rpc(fn, args),
  from: (table: string) => active.from(table),
};

export function resetSettingsSupabase(): SettingsSupabaseDouble {
  active = createDouble();
  return active;
}
