// Row-level security and grants of api_keys, through supabase-js as two real users and anon: each
// owner creates, lists and revokes only her own keys, no browser ever reads a key's hash, and the
// read API's functions belong to the service role alone. Creating keys is capped (active keys, and
// keys made per day however many are revoked), answered 409 and 429, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { API_KEYS } from '../../supabase/functions/_shared/limits.ts';
import { newClient, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';

let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;
let bobKeyId: string;

const LIST = 'id, user_id, name, scope, prefix, created_at, last_used_at, revoked_at';

beforeAll(async () => {
  service = serviceClient();
  [alice, bob] = await Promise.all([signUp('Alice Keys'), signUp('Bob Keys')]);
  const { data, error } = await bob.client.rpc('create_api_key', {
    p_name: 'Bob CRM',
    p_scope: 'read_write',
  });
  if (error) throw error;
  bobKeyId = (data as { id: string }).id;
});

afterAll(async () => {
  await service.from('api_keys').delete().in('user_id', [alice?.id, bob?.id]);
});

describe('api_keys', () => {
  it('creates a key for the caller and shows it once, in plain text, with its visible prefix', async () => {
    const { data, error } = await alice.client.rpc('create_api_key', {
      p_name: '  Zapier  ',
      p_scope: 'read_only',
    });
    expect(error).toBeNull();
    const created = data as { id: string; key: string; prefix: string; name: string };
    expect(created.key).toMatch(new RegExp(`^${API_KEYS.prefix}[0-9a-f]{64}$`));
    expect(created.prefix).toBe(created.key.slice(0, API_KEYS.visiblePrefixLength));
    expect(created.name).toBe('Zapier');

    const { data: rows } = await alice.client.from('api_keys').select(LIST);
    expect(rows).toEqual([
      expect.objectContaining({ id: created.id, user_id: alice.id, scope: 'read_only' }),
    ]);
    // Nothing in what the owner can read afterwards holds the key itself.
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(API_KEYS.visiblePrefixLength));
  });

  it("never shows an owner another owner's keys, nor anyone a key's hash", async () => {
    const { data: mine } = await alice.client.from('api_keys').select(LIST).eq('id', bobKeyId);
    expect(mine).toEqual([]);
    for (const columns of ['key_hash', '*', 'rate_window_hits']) {
      const { error } = await bob.client.from('api_keys').select(columns);
      expect(error?.code, columns).toBe('42501');
    }
    const { error: anonError } = await newClient().from('api_keys').select('id');
    expect(anonError?.code).toBe('42501');
  });

  it('lets no one write the table directly', async () => {
    const insert = await alice.client.from('api_keys').insert({
      user_id: alice.id,
      name: 'Forged',
      scope: 'read_write',
      prefix: 'tb_live_0000',
      key_hash: '0'.repeat(64),
    });
    expect(insert.error?.code).toBe('42501');
    const update = await bob.client
      .from('api_keys')
      .update({ scope: 'read_write', revoked_at: null })
      .eq('id', bobKeyId);
    expect(update.error?.code).toBe('42501');
    const remove = await alice.client.from('api_keys').delete().eq('id', bobKeyId);
    expect(remove.error?.code).toBe('42501');
  });

  it("revokes the caller's own key only", async () => {
    const { data: foreign } = await alice.client.rpc('revoke_api_key', { p_id: bobKeyId });
    expect(foreign).toBe(false);
    const { data: still } = await service
      .from('api_keys')
      .select('revoked_at')
      .eq('id', bobKeyId)
      .single();
    expect(still?.revoked_at).toBeNull();

    const { data: own } = await bob.client.rpc('revoke_api_key', { p_id: bobKeyId });
    expect(own).toBe(true);
    const { data: after } = await bob.client
      .from('api_keys')
      .select('revoked_at')
      .eq('id', bobKeyId)
      .single();
    expect(after?.revoked_at).not.toBeNull();
    const { data: twice } = await bob.client.rpc('revoke_api_key', { p_id: bobKeyId });
    expect(twice).toBe(false);
  });

  it('refuses a bad name or scope, and anon altogether', async () => {
    const badScope = await alice.client.rpc('create_api_key', { p_name: 'x', p_scope: 'admin' });
    expect(badScope.error?.message).toMatch(/scope/);
    const noName = await alice.client.rpc('create_api_key', {
      p_name: '   ',
      p_scope: 'read_only',
    });
    expect(noName.error?.message).toMatch(/name/);
    const long = await alice.client.rpc('create_api_key', {
      p_name: 'x'.repeat(API_KEYS.maxNameLength + 1),
      p_scope: 'read_only',
    });
    expect(long.error).not.toBeNull();
    const anon = await newClient().rpc('create_api_key', { p_name: 'x', p_scope: 'read_only' });
    expect(anon.error?.code).toBe('42501');
  });

  it("keeps the read API's functions to the service role", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['authenticate_api_key', { p_key_hash: '0'.repeat(64), p_per_minute: 60 }],
      ['api_list_forms', { p_user_id: bob.id }],
      [
        'api_list_entries',
        {
          p_user_id: bob.id,
          p_form_id: crypto.randomUUID(),
          p_since: null,
          p_after_created: null,
          p_after_id: null,
          p_limit: 10,
        },
      ],
      [
        'api_delete_entry',
        { p_user_id: bob.id, p_form_id: crypto.randomUUID(), p_entry_id: crypto.randomUUID() },
      ],
    ];
    for (const [fn, args] of calls) {
      for (const client of [alice.client, newClient()]) {
        const { error } = await client.rpc(fn, args);
        expect(error?.code, fn).toBe('42501');
      }
    }
  });

  it(`caps an account at ${API_KEYS.maxActiveKeys} active keys, answering 409 (PT409)`, async () => {
    const carol = await signUp('Carol Keys');
    try {
      for (let i = 0; i < API_KEYS.maxActiveKeys; i++) {
        const { error } = await carol.client.rpc('create_api_key', {
          p_name: `Key ${i}`,
          p_scope: 'read_only',
        });
        expect(error).toBeNull();
      }
      const over = await carol.client.rpc('create_api_key', {
        p_name: 'One more',
        p_scope: 'read_only',
      });
      expect(over.error?.message).toMatch(/Revoke one first/);
      expect({ status: over.status, code: over.error?.code }).toEqual({
        status: 409,
        code: 'PT409',
      });
    } finally {
      await service.from('api_keys').delete().eq('user_id', carol.id);
    }
  });

  it(`caps key creation at ${API_KEYS.createdPerDay} a day: revoking keys gives none back`, async () => {
    const dave = await signUp('Dave Keys');
    try {
      for (let i = 1; i <= API_KEYS.createdPerDay; i++) {
        const { data, error } = await dave.client.rpc('create_api_key', {
          p_name: `Throwaway ${i}`,
          p_scope: 'read_only',
        });
        expect(error, `key ${i}`).toBeNull();
        const revoked = await dave.client.rpc('revoke_api_key', {
          p_id: (data as { id: string }).id,
        });
        expect(revoked.data, `key ${i}`).toBe(true);
      }
      const over = await dave.client.rpc('create_api_key', {
        p_name: 'One more',
        p_scope: 'read_only',
      });
      expect({ status: over.status, code: over.error?.code, hint: over.error?.hint }).toEqual({
        status: 429,
        code: 'PT429',
        hint: 'api_key_rate',
      });
      const { data: active } = await dave.client
        .from('api_keys')
        .select('id')
        .is('revoked_at', null);
      expect(active).toEqual([]);
    } finally {
      await service.from('api_keys').delete().eq('user_id', dave.id);
    }
  });
});
