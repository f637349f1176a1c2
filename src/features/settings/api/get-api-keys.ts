// Reads the signed-in owner's active API keys, newest first. Only what the list shows: the table
// holds each key's hash too, which no browser may read (the database refuses that column).
import { useQuery } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';

export type { ApiKeyScope } from '../../../lib/database';

/** A key as the list shows it; `prefix`: its first characters ('tb_live_' and 4 more). */
export type ApiKey = Pick<
  Tables<'api_keys'>,
  'id' | 'name' | 'scope' | 'prefix' | 'created_at' | 'last_used_at'
>;

const API_KEY_COLUMNS = 'id, name, scope, prefix, created_at, last_used_at';

export const apiKeysKeys = {
  all: ['api-keys'] as const,
  list: () => ['api-keys', 'list'] as const,
};

async function getApiKeys(): Promise<ApiKey[]> {
  const { data, error } = await supabase
    .from('api_keys')
    .select(API_KEY_COLUMNS)
    .is('revoked_at', null)
    .order('created_at', { ascending: false });
  if (error) throw new Error(error.message);
  return data ?? [];
}

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKeys.list(), queryFn: getApiKeys });
}
