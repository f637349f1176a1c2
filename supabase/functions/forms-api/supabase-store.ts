// Storage of the read API through supabase-js with the service role: one RPC per step, each
// answering for the key owner's rows only (see migration 20261124160000_api_keys.sql).
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { API_KEYS } from '../_shared/limits.ts';
import type {
  ApiEntry,
  ApiForm,
  ApiStore,
  AuthResult,
  KeyScope,
  ListEntriesInput,
} from './model.ts';

async function call<T>(client: SupabaseClient, fn: string, args: Record<string, unknown>) {
  const { data, error } = await client.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  return data as T;
}

export function createApiStore(client: SupabaseClient): ApiStore {
  return {
    async authenticate(keyHash: string): Promise<AuthResult> {
      const result = await call<{
        status: string;
        key_id?: string;
        user_id?: string;
        scope?: KeyScope;
        key_hash?: string;
        retry_after?: number;
      }>(client, 'authenticate_api_key', {
        p_key_hash: keyHash,
        p_per_minute: API_KEYS.requestsPerMinute,
        p_per_account_per_minute: API_KEYS.requestsPerMinutePerAccount,
      });
      if (result.status === 'rate_limited')
        return { status: 'rate_limited', retryAfter: Number(result.retry_after) };
      if (result.status !== 'ok') return { status: 'unauthorized' };
      return {
        status: 'ok',
        identity: {
          keyId: result.key_id!,
          userId: result.user_id!,
          scope: result.scope!,
          keyHash: result.key_hash!,
        },
      };
    },

    listForms: (userId: string) => call<ApiForm[]>(client, 'api_list_forms', { p_user_id: userId }),

    async listEntries(input: ListEntriesInput) {
      const result = await call<{ status: string; entries?: ApiEntry[] }>(
        client,
        'api_list_entries',
        {
          p_user_id: input.userId,
          p_form_id: input.formId,
          p_since: input.since,
          p_after_created: input.after?.createdAt ?? null,
          p_after_id: input.after?.id ?? null,
          p_limit: input.limit,
        },
      );
      if (result.status === 'form_not_found') return { status: 'form_not_found' as const };
      return { status: 'ok' as const, entries: result.entries ?? [] };
    },

    async deleteEntry(userId: string, formId: string, entryId: string) {
      const result = await call<{ status: 'deleted' | 'form_not_found' | 'entry_not_found' }>(
        client,
        'api_delete_entry',
        { p_user_id: userId, p_form_id: formId, p_entry_id: entryId },
      );
      return result.status;
    },
  };
}
