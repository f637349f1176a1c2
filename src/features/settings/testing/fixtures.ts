// The settings' tables and functions in the tests' database (components/testing/supabase-server.ts):
// the account's API keys, created and revoked by their owner functions, and account deletion.
import { supabaseDb } from '../../../components/testing/supabase-server';
import type { ApiKey } from '../api/get-api-keys';

/** Seeds `api_keys` (no keys), `create_api_key()`, `revoke_api_key()` and `delete_own_account()`. */
export function seedSettings() {
  let created = 0;
  supabaseDb.seed({ api_keys: [] });
  supabaseDb.rpc('create_api_key', (args) => {
    created += 1;
    const key = `tb_live_${String(created).repeat(64).slice(0, 64)}`;
    const row: ApiKey = {
      id: `key-${created}`,
      name: String(args.p_name),
      scope: args.p_scope as ApiKey['scope'],
      prefix: key.slice(0, 12),
      created_at: new Date(Date.UTC(2026, 10, 24, 14, 47, created)).toISOString(),
      last_used_at: null,
    };
    supabaseDb.rows('api_keys').push({ ...row, revoked_at: null });
    return { ...row, key };
  });
  supabaseDb.rpc('revoke_api_key', (args) => {
    const row = supabaseDb.rows('api_keys').find((k) => k.id === args.p_id && !k.revoked_at);
    if (row) row.revoked_at = new Date().toISOString();
    return Boolean(row);
  });
  supabaseDb.rpc('delete_own_account', () => null);
}
