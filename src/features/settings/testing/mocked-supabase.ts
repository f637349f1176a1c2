// Stands in for src/lib/supabase in the settings tests: the shared auth double plus `rpc`, which
// only account deletion calls. A test file opts in with
//   vi.mock('…/lib/supabase', () => import('…/features/settings/testing/mocked-supabase'));
import { vi } from 'vitest';
import { createSupabaseMock } from '../../../components/testing/supabase-mock';

function createDouble() {
  const base = createSupabaseMock();
  const rpc = vi.fn(async (_fn: string) => ({
    data: null,
    error: null as { message: string } | null,
  }));
  return { ...base, rpc };
}

export type SettingsSupabaseDouble = ReturnType<typeof createDouble>;

let active = createDouble();

export const supabase = {
  get auth() {
    return active.supabase.auth;
  },
  rpc: (fn: string) => active.rpc(fn),
};

export function resetSettingsSupabase(): SettingsSupabaseDouble {
  active = createDouble();
  return active;
}
