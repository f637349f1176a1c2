// Revokes an API key: from the next request on, it gets 401 like a key that never existed. The key
// leaves the list at once and comes back if the server refuses.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { apiKeysKeys, type ApiKey } from './get-api-keys';

async function revokeApiKey(id: string): Promise<void> {
  // false: already revoked (e.g. in another tab), which is the outcome asked for.
  const { error } = await supabase.rpc('revoke_api_key', { p_id: id });
  if (error) throw new Error(error.message);
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onMutate: async (id: string) => {
      await client.cancelQueries({ queryKey: apiKeysKeys.list() });
      const previous = client.getQueryData<ApiKey[]>(apiKeysKeys.list());
      client.setQueryData<ApiKey[]>(apiKeysKeys.list(), (keys) => keys?.filter((k) => k.id !== id));
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) client.setQueryData(apiKeysKeys.list(), context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey: apiKeysKeys.list() }),
  });
}
