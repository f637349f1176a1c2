// Creates an API key through create_api_key(), which returns the key in plain text this once
// (only its SHA-256 is stored); the list is refreshed afterwards. The database refuses a 21st
// active key and a 21st key created in a day.
import * as yup from 'yup';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Functions } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import { API_KEYS } from '../../../../supabase/functions/_shared/limits';
import { apiKeysKeys, type ApiKeyScope } from './get-api-keys';

export const API_KEY_SCOPES: ApiKeyScope[] = ['read_only', 'read_write'];

export const createApiKeySchema = yup.object({
  name: yup
    .string()
    .trim()
    .required('Name the key after where it is used, e.g. "CRM sync".')
    .max(API_KEYS.maxNameLength, `Use at most ${API_KEYS.maxNameLength} characters.`),
  scope: yup
    .mixed<ApiKeyScope>()
    .oneOf(API_KEY_SCOPES, 'Choose what the key may do.')
    .required('Choose what the key may do.'),
});

export type CreateApiKeyInput = yup.InferType<typeof createApiKeySchema>;

/** The new key: its list entry plus the full key, which is never shown again. */
export type CreatedApiKey = Functions<'create_api_key'>['Returns'];

async function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const { name, scope } = await createApiKeySchema.validate(input);
  const { data, error } = await supabase.rpc('create_api_key', { p_name: name, p_scope: scope });
  // Keeps the database's code and hint: a refused key (PT409 api_key_limit, PT429 api_key_rate)
  // is shown in the database's own words.
  if (error) throw Object.assign(new Error(error.message), { code: error.code, hint: error.hint });
  return data;
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSettled: () => client.invalidateQueries({ queryKey: apiKeysKeys.list() }),
  });
}
