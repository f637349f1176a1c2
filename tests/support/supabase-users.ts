// supabase-js clients for integration tests against the test stack: visitors, the service role,
// and signed-in users. Sign-ups need their e-mail confirmed (config.toml's enable_confirmations),
// so `signUp` makes a confirmed user with the service role and signs in with the password, on the
// local stack and on a deployment under `npm run verify` alike: fast, and no confirmation e-mail
// goes out. Tests about signing up go through the real flow instead (tests/support/confirmation.ts).
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import { uniqueEmail } from './db.ts';
import { testStack } from './stack.ts';

export interface TestUser {
  client: SupabaseClient;
  id: string;
  email: string;
  password: string;
}

export const TEST_PASSWORD = 'correct-horse-9';

// Node 20 has no global WebSocket; browsers and Node 22 need no transport option.
const realtime = { transport: ws as unknown as typeof WebSocket };

/** A client without a stored session; the anon key unless another key is given. */
export function newClient(key?: string): SupabaseClient {
  const stack = testStack();
  return createClient(stack.apiUrl, key ?? stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime,
  });
}

export function serviceClient(): SupabaseClient {
  return newClient(testStack().serviceRoleKey);
}

/** A confirmed user, signed in on a client of their own. */
export async function signUp(name: string): Promise<TestUser> {
  const client = newClient();
  // The name may hold spaces ('Ada Lovelace'); the address gets a slug of it.
  const email = uniqueEmail(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
  const created = await serviceClient().auth.admin.createUser({
    email,
    password: TEST_PASSWORD,
    email_confirm: true,
    user_metadata: { name },
  });
  if (created.error) throw created.error;
  const { error } = await client.auth.signInWithPassword({ email, password: TEST_PASSWORD });
  if (error) throw error;
  return { client, id: created.data.user.id, email, password: TEST_PASSWORD };
}

/** Creates a form as its owner; returns its id. */
export async function createForm(
  client: SupabaseClient,
  name: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const { data, error } = await client
    .from('forms')
    .insert({
      name,
      target_email: 'owner@example.test',
      allowed_origin: 'https://example.test',
      ...fields,
    })
    .select('id')
    .single();
  if (error) throw error;
  return data.id as string;
}

/** Inserts an entry as the form endpoint does: with the service role. Returns the stored row. */
export async function serviceInsertEntry<T = Record<string, unknown>>(
  service: SupabaseClient,
  formId: string,
  fields: Record<string, unknown> = {},
): Promise<T> {
  const { data, error } = await service
    .from('entries')
    .insert({
      form_id: formId,
      name: 'Visitor',
      email: 'visitor@example.test',
      message: 'Hello',
      ...fields,
    })
    .select()
    .single();
  if (error) throw error;
  return data as T;
}
