// Form ids after their form is gone, through the real parts (Auth, REST, Realtime, Postgres with
// the real migrations): an id is never given out twice — not to another user, not to its first
// owner, not after the owner's account is deleted — and what Realtime tells others about a
// deleted row (its id, as on Supabase; see docs/ARCHITECTURE.md, "Deleted rows and Realtime").
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ACCOUNT_CAPS } from '../../supabase/functions/_shared/limits.ts';
import { Changes, subscribeAsDashboard } from '../support/realtime.ts';
import {
  newClient,
  serviceClient,
  serviceInsertEntry,
  signUp,
  type TestUser,
} from '../support/supabase-users.ts';

const USED_BEFORE = { code: '23505', message: 'This form id was used before.' };

let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  service = serviceClient();
  alice = await signUp('Alice');
  bob = await signUp('Bob');
});

afterAll(async () => {
  for (const u of [alice, bob]) {
    if (!u) continue;
    await u.client.removeAllChannels();
    await service.from('forms').delete().eq('user_id', u.id);
  }
});

/** Inserts a form with a chosen id as `client`, as the dashboard does (browser-generated id). */
function insertForm(client: SupabaseClient, id: string, origin = 'https://alice.example') {
  return client
    .from('forms')
    .insert({ id, name: 'Contact', target_email: 'owner@example.test', allowed_origin: origin })
    .select('id, user_id');
}

async function createAndDelete(owner: TestUser): Promise<string> {
  const id = randomUUID();
  const created = await insertForm(owner.client, id);
  expect(created.error).toBeNull();
  const deleted = await owner.client.from('forms').delete().eq('id', id).select('id');
  expect(deleted.data).toEqual([{ id }]);
  return id;
}

describe('form ids', () => {
  it('of a deleted form are refused to everyone, its first owner included', async () => {
    const id = await createAndDelete(alice);

    // Bob would receive every submission Alice's still-published page sends to this id.
    const takeover = await insertForm(bob.client, id);
    expect(takeover.error).toMatchObject(USED_BEFORE);
    expect(takeover.data).toBeNull();

    const again = await insertForm(alice.client, id);
    expect(again.error).toMatchObject(USED_BEFORE);

    const byService = await insertForm(service, id);
    expect(byService.error).toMatchObject(USED_BEFORE);

    const { data } = await service.from('forms').select('id').eq('id', id);
    expect(data).toEqual([]);
  });

  it('stay refused after the owner deletes her account', async () => {
    const carol = await signUp('Carol');
    const id = randomUUID();
    expect((await insertForm(carol.client, id)).error).toBeNull();
    const { error } = await carol.client.rpc('delete_own_account');
    expect(error).toBeNull();
    expect((await service.from('forms').select('id').eq('id', id)).data).toEqual([]);

    const takeover = await insertForm(bob.client, id);
    expect(takeover.error).toMatchObject(USED_BEFORE);
  });

  it('of a live form are refused too, and an id can never be changed by its owner', async () => {
    const id = randomUUID();
    expect((await insertForm(alice.client, id)).error).toBeNull();
    expect((await insertForm(bob.client, id)).error?.code).toBe('23505');

    const moved = await alice.client.from('forms').update({ id: randomUUID() }).eq('id', id);
    expect(moved.error?.code).toBe('42501');
  });

  it('are a list nobody but the database reads or writes', async () => {
    // private.used_form_ids: not served by the Data API, to the service role neither.
    for (const client of [alice.client, newClient(), service]) {
      const read = await client.from('used_form_ids').select('id');
      expect(read.error?.code).toBe('PGRST205');
      const write = await client.from('used_form_ids').delete().not('id', 'is', null);
      expect(write.error?.code).toBe('PGRST205');
      const add = await client.from('used_form_ids').insert({ id: randomUUID() });
      expect(add.error?.code).toBe('PGRST205');
    }
  });

  it('are not burnt by an insert that fails', async () => {
    const id = randomUUID();
    // Refused by RLS (not her user id): the transaction, with the id's record, is rolled back.
    const forBob = await alice.client.from('forms').insert({
      id,
      user_id: bob.id,
      name: 'x',
      target_email: 'a@example.test',
      allowed_origin: 'https://a.example',
    });
    expect(forBob.error?.code).toBe('42501');
    expect((await insertForm(bob.client, id)).error).toBeNull();
  });
});

describe('a deleted row on Realtime (documented behaviour, as on Supabase)', () => {
  it('reaches a subscriber filtering on another owner as its id only; inserts and updates never do', async () => {
    // Bob listens with Alice's id as his filter. RLS hides her inserts and updates from him; a
    // deleted row cannot be checked against RLS any more, so its key goes to every matching filter.
    const forBob = new Changes();
    await subscribeAsDashboard(bob.client, alice.id, forBob);

    const formId = randomUUID();
    expect((await insertForm(alice.client, formId)).error).toBeNull();
    expect(
      (await alice.client.from('forms').update({ name: 'Renamed' }).eq('id', formId)).error,
    ).toBeNull();
    const entry = await serviceInsertEntry<{ id: string }>(service, formId, { message: 'Secret' });
    expect((await alice.client.from('entries').delete().eq('id', entry.id)).error).toBeNull();
    expect((await alice.client.from('forms').delete().eq('id', formId)).error).toBeNull();

    // The form's delete commits last, so every earlier change would have been sent before it.
    await forBob.waitFor((c) => c.eventType === 'DELETE' && c.table === 'forms', 10_000);
    expect(forBob.seen.map((c) => [c.table, c.eventType, c.old, c.new])).toEqual([
      ['entries', 'DELETE', { id: entry.id }, {}],
      ['forms', 'DELETE', { id: formId }, {}],
    ]);

    // What the leaked id is worth: nothing, it can never be a form again.
    expect((await insertForm(bob.client, formId)).error).toMatchObject(USED_BEFORE);
  });
});

describe('form creation', () => {
  it('is capped per account and hour, however many of the forms are deleted again', async () => {
    const carol = await signUp('Carol');
    try {
      for (let i = 0; i < ACCOUNT_CAPS.formsPerHour; i++) await createAndDelete(carol);
      const refused = await insertForm(carol.client, randomUUID());
      expect(refused.status).toBe(429);
      expect(refused.error).toMatchObject({ code: 'PT429', hint: 'form_create_limit' });
      // Another account is not held back by Carol's count.
      const other = await insertForm(bob.client, randomUUID(), 'https://bob.example');
      expect(other.error).toBeNull();
    } finally {
      await service.auth.admin.deleteUser(carol.id);
    }
  });
});
