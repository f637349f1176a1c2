// Stands in for src/lib/supabase in component tests. A test file opts in with
//   vi.mock('…/lib/supabase', () => import('…/components/testing/mocked-supabase'));
// and takes a fresh double it controls with resetSupabaseMock() before each test.
import { createSupabaseMock, type SupabaseMock } from './supabase-mock';

let active: SupabaseMock = createSupabaseMock();

/** The client the app modules import; every call reaches the double of the current test. */
export const supabase = {
  get auth() {
    return active.supabase.auth;
  },
  from: (table: string) => active.supabase.from(table),
  channel: (name: string) => active.supabase.channel(name),
  removeChannel: (channel: unknown) => active.supabase.removeChannel(channel),
};

export function resetSupabaseMock(): SupabaseMock {
  active = createSupabaseMock();
  return active;
}
