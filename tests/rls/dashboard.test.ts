// What the signed-in dashboard relies on, through the real parts (Auth, REST, Realtime, Postgres
// with the real migrations): the owner-filtered live subscription sees its owner's inserts,
// updates and deletes and nothing of another owner's; message counts, per-form settings and
// account deletion act on the caller's own rows only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Changes, idOf, subscribeAsDashboard } from '../support/realtime.ts';
import {
  createForm,
  newClient,
  serviceClient,
  serviceInsertEntry,
  signUp,
  type TestUser,
} from '../support/supabase-users.ts';

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

describe('the owner-filtered live subscription', () => {
  it('brings the owner her inserts, updates and deletes, and none of them to anyone else', async () => {
    const forAlice = new Changes();
    const forBob = new Changes();
    await subscribeAsDashboard(alice.client, alice.id, forAlice);
    await subscribeAsDashboard(bob.client, bob.id, forBob);

    const formId = await createForm(alice.client, 'Live form');
    const inserted = await forAlice.waitFor((c) => c.table === 'forms' && idOf(c) === formId);
    expect(inserted.eventType).toBe('INSERT');

    const entry = await serviceInsertEntry<{ id: string }>(service, formId, { message: 'Live' });
    const arrived = await forAlice.waitFor((c) => c.table === 'entries' && idOf(c) === entry.id);
    expect(arrived.eventType).toBe('INSERT');
    expect(arrived.new).toMatchObject({ form_id: formId, user_id: alice.id, message: 'Live' });

    const { error: readError } = await alice.client
      .from('entries')
      .update({ read_at: new Date().toISOString() })
      .eq('id', entry.id);
    expect(readError).toBeNull();
    const updated = await forAlice.waitFor((c) => c.eventType === 'UPDATE' && idOf(c) === entry.id);
    expect((updated.new as { read_at: string | null }).read_at).not.toBeNull();

    const { error: deleteError } = await alice.client.from('entries').delete().eq('id', entry.id);
    expect(deleteError).toBeNull();
    const deleted = await forAlice.waitFor(
      (c) => c.eventType === 'DELETE' && c.table === 'entries' && idOf(c) === entry.id,
    );
    // On a table with RLS, a delete carries the key only (as on Supabase).
    expect(deleted.old).toEqual({ id: entry.id });

    const { error: formDeleteError } = await alice.client.from('forms').delete().eq('id', formId);
    expect(formDeleteError).toBeNull();
    await forAlice.waitFor(
      (c) => c.eventType === 'DELETE' && c.table === 'forms' && idOf(c) === formId,
    );

    // Bob's own change arrives after all of Alice's (commit order), so by then he would have
    // been sent hers had the filter or RLS let them through.
    const bobForm = await createForm(bob.client, 'Bob form');
    await forBob.waitFor((c) => idOf(c) === bobForm);
    expect(forBob.seen.map(idOf)).toEqual([bobForm]);
  });
});

describe('form_message_counts()', () => {
  it('counts messages, unread and spam of the caller’s own forms only', async () => {
    const aliceForm = await createForm(alice.client, 'Counted');
    const bobForm = await createForm(bob.client, 'Not hers');
    await serviceInsertEntry(service, aliceForm);
    await serviceInsertEntry(service, aliceForm, { read_at: new Date().toISOString() });
    await serviceInsertEntry(service, aliceForm, { is_spam: true });
    await serviceInsertEntry(service, bobForm);

    const { data, error } = await alice.client.rpc('form_message_counts');
    expect(error).toBeNull();
    const rows = data as { form_id: string }[];
    expect(rows.find((row) => row.form_id === aliceForm)).toEqual({
      form_id: aliceForm,
      total: 2,
      unread: 1,
      spam: 1,
    });
    expect(rows.map((row) => row.form_id)).not.toContain(bobForm);

    const visitor = await newClient().rpc('form_message_counts');
    expect(visitor.error?.code).toBe('42501');
  });
});

describe('per-form settings', () => {
  it('are stored for the owner and refuse a redirect that is not an http(s) URL', async () => {
    const formId = await createForm(alice.client, 'Settings', {
      notify_email: false,
      redirect_url: 'https://example.test/thank-you',
    });
    const { data } = await alice.client
      .from('forms')
      .select('notify_email, redirect_url')
      .eq('id', formId)
      .single();
    expect(data).toEqual({ notify_email: false, redirect_url: 'https://example.test/thank-you' });

    const bad = await alice.client
      .from('forms')
      .update({ redirect_url: 'javascript:alert(1)' })
      .eq('id', formId);
    expect(bad.error?.code).toBe('23514');

    const notTheirs = await bob.client
      .from('forms')
      .update({ notify_email: true })
      .eq('id', formId)
      .select();
    expect(notTheirs.data).toEqual([]);
  });

  it('leave the search column to the database', async () => {
    const formId = await createForm(alice.client, 'Search');
    const entry = await serviceInsertEntry<{ id: string; search_text: string }>(service, formId, {
      name: 'Zoë Example',
      message: 'Hello THERE',
    });
    expect(entry.search_text).toBe('zoë example visitor@example.test hello there');
    const write = await alice.client
      .from('entries')
      .update({ search_text: 'forged' } as never)
      .eq('id', entry.id);
    // Refused: a generated column cannot be written (and the owner has no grant on it).
    expect(['428C9', '42501']).toContain(write.error?.code);
  });
});

describe('delete_own_account()', () => {
  it('deletes the caller with all her data, and nobody else', async () => {
    const carol = await signUp('Carol');
    const carolForm = await createForm(carol.client, 'Carol form');
    await serviceInsertEntry(service, carolForm);
    const bobForm = await createForm(bob.client, 'Bob keeps this');

    const visitor = await newClient().rpc('delete_own_account');
    expect(visitor.error?.code).toBe('42501');

    const { error } = await carol.client.rpc('delete_own_account');
    expect(error).toBeNull();

    const forms = await service.from('forms').select('id').eq('user_id', carol.id);
    expect(forms.data).toEqual([]);
    const entries = await service.from('entries').select('id').eq('form_id', carolForm);
    expect(entries.data).toEqual([]);
    const user = await service.auth.admin.getUserById(carol.id);
    expect(user.data.user).toBeNull();
    const kept = await service.from('forms').select('id').eq('id', bobForm);
    expect(kept.data).toEqual([{ id: bobForm }]);

    // Her old session can no longer sign in again.
    const again = await newClient().auth.signInWithPassword({
      email: carol.email,
      password: carol.password,
    });
    expect(again.error?.message).toBe('Invalid login credentials');
  });
});
