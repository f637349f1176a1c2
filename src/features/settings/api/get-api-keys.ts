// Reads the signed-in owner's active API keys, newest first. Only what the list shows: the table
// holds each key's hash too, which no browser may read (the database refuses that column).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

export type ApiKeyScope = 'read_only' | 'read_write';

export interface ApiKey {
  id: string;
  name: string;
  scope: ApiKeyScope;
  /** The key's first characters ('tb_live_' and 4 more), to tell keys apart. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export const API_KEY_COLUMNS = 'id, name, scope, prefix, created_at, last_used_at';

export const apiKeysKeys = {
  all: ['api-keys'] as const,
  list: () => ['api-keys', 'list'] as const,
};

export async function getApiKeys(): Promise<ApiKey[]> {
  const { data, error } = await supabase
    .from('api_keys')
    .select(API_KEY_COLUMNS)
    .is('revoked_at', null)
    .order('created_at', { ascending: false });
  if (error) throw new Error(error.message);
  return (data ?? []) as ApiKey[];
}

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKeys.list(), queryFn: getApiKeys });
}
