// The RLS matrix again, end to end: two confirmed users signed in through Auth, a signed-out
// visitor and the service role all act through the unchanged @supabase/supabase-js against the
// local stack, so each request passes through REST (or Realtime) and Postgres enforces the rules.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import {
  createForm,
  serviceInsertEntry as insertEntryAsService,
  newClient,
  serviceClient,
  signUp,
  type TestUser,
} from '../support/supabase-users.ts';
import { uniqueEmail } from '../support/db.ts';
import { remote } from '../support/target.ts';

const PERMISSION_DENIED = '42501';
/** PostgREST's answer for a table it does not serve (internals live in the private schema). */
const NOT_IN_THE_API = 'PGRST205';
const CHECK_VIOLATION = '23514';
/** The promise: an owner sees a new message within one second. */
const REALTIME_DEADLINE_MS = 1000;

interface Entry {
  id: string;
  form_id: string;
  user_id: string;
  name: string | null;
  email: string | null;
  message: string | null;
  is_spam: boolean;
  read_at: string | null;
}

// A deliberately tiny wrapper: the endpoint's service-role insert, into the file's own service client.
const serviceInsertEntry = (formId: string, fields: Partial<Entry> = {}) =>
  insertEntryAsService<Entry>(service, formId, fields);

let anonClient: SupabaseClient;
let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;
let aliceForm: string;
let bobForm: string;

beforeAll(async () => {
  anonClient = newClient();
  service = serviceClient();
  alice = await signUp('Alice');
  bob = await signUp('Bob');
  aliceForm = await createForm(alice.client, 'Alice contact');
  bobForm = await createForm(bob.client, 'Bob contact');
});

afterAll(async () => {
  for (const u of [alice, bob]) {
    if (!u) continue;
    await u.client.removeAllChannels();
    await service.from('forms').delete().eq('user_id', u.id);
  }
  await anonClient?.removeAllChannels();
});

describe('profiles', () => {
  it('are created on sign-up with the name given and readable by the owner only', async () => {
    const own = await alice.client.from('profiles').select('id, name, email, role');
    expect(own.error).toBeNull();
    expect(own.data).toEqual([{ id: alice.id, name: 'Alice', email: alice.email, role: 'user' }]);
    const other = await bob.client.from('profiles').select('id').eq('id', alice.id);
    expect(other.data).toEqual([]);
    const visitor = await anonClient.from('profiles').select('id');
    expect(visitor.error?.code).toBe(PERMISSION_DENIED);
  });

  it('let the owner rename herself but not change her role or e-mail', async () => {
    const renamed = await alice.client
      .from('profiles')
      .update({ name: 'Alice A.' })
      .eq('id', alice.id)
      .select('name');
    expect(renamed.data).toEqual([{ name: 'Alice A.' }]);
    const role = await alice.client.from('profiles').update({ role: 'admin' }).eq('id', alice.id);
    expect(role.error?.code).toBe(PERMISSION_DENIED);
    const email = await alice.client
      .from('profiles')
      .update({ email: 'x@example.test' })
      .eq('id', alice.id);
    expect(email.error?.code).toBe(PERMISSION_DENIED);
    const bobsRename = await bob.client
      .from('profiles')
      .update({ name: 'Mallory' })
      .eq('id', alice.id)
      .select('id');
    expect(bobsRename.data).toEqual([]);
    const { data } = await service
      .from('profiles')
      .select('name, role')
      .eq('id', alice.id)
      .single();
    expect(data).toEqual({ name: 'Alice A.', role: 'user' });
  });
});

describe('forms', () => {
  it('are created for the signed-in user with a client id and a normalised origin', async () => {
    const id = randomUUID();
    const { data, error } = await alice.client
      .from('forms')
      .insert({
        id,
        name: ' Newsletter ',
        target_email: 'me@example.test',
        allowed_origin: 'https://Alice.Example/',
      })
      .select('id, user_id, name, allowed_origin')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      id,
      user_id: alice.id,
      name: 'Newsletter',
      allowed_origin: 'https://alice.example',
    });
    await alice.client.from('forms').delete().eq('id', id);
  });

  it('are private to their owner', async () => {
    const own = await alice.client.from('forms').select('id');
    expect(own.data).toEqual([{ id: aliceForm }]);
    const other = await bob.client.from('forms').select('id').eq('id', aliceForm);
    expect(other.data).toEqual([]);
    const visitor = await anonClient.from('forms').select('id');
    expect(visitor.error?.code).toBe(PERMISSION_DENIED);
  });

  it('cannot be created for someone else or by a visitor', async () => {
    const forBob = await alice.client.from('forms').insert({
      user_id: bob.id,
      name: 'x',
      target_email: 'a@example.test',
      allowed_origin: 'https://a.example',
    });
    expect(forBob.error?.code).toBe(PERMISSION_DENIED);
    const visitor = await anonClient
      .from('forms')
      .insert({ name: 'x', target_email: 'a@example.test', allowed_origin: 'https://a.example' });
    expect(visitor.error?.code).toBe(PERMISSION_DENIED);
  });

  it('reject an empty name, a bad e-mail and an origin with a path', async () => {
    const base = {
      name: 'Contact',
      target_email: 'me@example.test',
      allowed_origin: 'https://a.example',
    };
    for (const bad of [
      { name: '  ' },
      { target_email: 'not-an-email' },
      { allowed_origin: 'https://a.example/contact' },
    ]) {
      const { error } = await alice.client.from('forms').insert({ ...base, ...bad });
      expect(error?.code, JSON.stringify(bad)).toBe(CHECK_VIOLATION);
    }
  });

  it('are changed and deleted by their owner only', async () => {
    const bobsUpdate = await bob.client
      .from('forms')
      .update({ name: 'Hijacked' })
      .eq('id', aliceForm)
      .select('id');
    expect(bobsUpdate.data).toEqual([]);
    const bobsDelete = await bob.client.from('forms').delete().eq('id', aliceForm).select('id');
    expect(bobsDelete.data).toEqual([]);
    const visitorDelete = await anonClient.from('forms').delete().eq('id', aliceForm);
    expect(visitorDelete.error?.code).toBe(PERMISSION_DENIED);
    const own = await alice.client
      .from('forms')
      .update({ name: 'Alice contact' })
      .eq('id', aliceForm)
      .select('name');
    expect(own.data).toEqual([{ name: 'Alice contact' }]);
    const temp = await createForm(alice.client, 'Temporary');
    const ownDelete = await alice.client.from('forms').delete().eq('id', temp).select('id');
    expect(ownDelete.data).toEqual([{ id: temp }]);
  });
});

describe('entries', () => {
  it('take their owner from the form, not from the writer', async () => {
    const entry = await serviceInsertEntry(aliceForm, { user_id: bob.id });
    expect(entry.user_id).toBe(alice.id);
  });

  it('cannot be inserted by users or visitors', async () => {
    for (const client of [alice.client, bob.client, anonClient]) {
      const { error } = await client
        .from('entries')
        .insert({ form_id: aliceForm, message: 'spoofed' });
      expect(error?.code).toBe(PERMISSION_DENIED);
    }
  });

  it('are visible to the form owner only', async () => {
    const entry = await serviceInsertEntry(aliceForm);
    const own = await alice.client.from('entries').select('id').eq('id', entry.id);
    expect(own.data).toEqual([{ id: entry.id }]);
    const other = await bob.client.from('entries').select('id').eq('form_id', aliceForm);
    expect(other.data).toEqual([]);
    const visitor = await anonClient.from('entries').select('id');
    expect(visitor.error?.code).toBe(PERMISSION_DENIED);
  });

  it('can be flagged read or spam by the owner, but not rewritten', async () => {
    const entry = await serviceInsertEntry(aliceForm);
    const flagged = await alice.client
      .from('entries')
      .update({ is_spam: true, read_at: new Date().toISOString() })
      .eq('id', entry.id)
      .select('is_spam');
    expect(flagged.data).toEqual([{ is_spam: true }]);
    for (const change of [{ message: 'rewritten' }, { user_id: bob.id }, { form_id: bobForm }]) {
      const { error } = await alice.client.from('entries').update(change).eq('id', entry.id);
      expect(error?.code, JSON.stringify(change)).toBe(PERMISSION_DENIED);
    }
    const bobs = await bob.client
      .from('entries')
      .update({ is_spam: false })
      .eq('id', entry.id)
      .select('id');
    expect(bobs.data).toEqual([]);
    const visitor = await anonClient.from('entries').update({ is_spam: false }).eq('id', entry.id);
    expect(visitor.error?.code).toBe(PERMISSION_DENIED);
    const { data } = await service
      .from('entries')
      .select('message, is_spam')
      .eq('id', entry.id)
      .single();
    expect(data).toEqual({ message: 'Hello', is_spam: true });
  });

  it('are deleted by the owner only', async () => {
    const entry = await serviceInsertEntry(aliceForm);
    expect(
      (await bob.client.from('entries').delete().eq('id', entry.id).select('id')).data,
    ).toEqual([]);
    expect((await anonClient.from('entries').delete().eq('id', entry.id)).error?.code).toBe(
      PERMISSION_DENIED,
    );
    expect(
      (await alice.client.from('entries').delete().eq('id', entry.id).select('id')).data,
    ).toEqual([{ id: entry.id }]);
  });
});

describe('newsletter_subscribers', () => {
  // The footer's sign-ups from before the site list, in the private schema, which the Data API does
  // not serve (to the service role neither); sign-ups go through the `newsletter` Edge Function's
  // definer functions.
  it('take no direct insert from visitors or users, so the answer reveals nothing', async () => {
    const email = uniqueEmail('news');
    for (const client of [anonClient, alice.client]) {
      const { error } = await client.from('newsletter_subscribers').insert({ email });
      expect(error?.code).toBe(NOT_IN_THE_API);
      // Nor through the functions the Edge Function calls.
      for (const [name, args] of [
        ['list_signup_attempt', { p_list_id: null, p_origin: null, p_client: 'x', p_caps: {} }],
        ['list_confirm', { p_token: 'x' }],
        ['list_unsubscribe_token', { p_token: 'x' }],
      ] as const) {
        const rpc = await client.rpc(name, args);
        expect(rpc.error?.code, name).toBe(PERMISSION_DENIED);
      }
    }
  });

  it('are readable by no client, the service role included', async () => {
    for (const client of [anonClient, alice.client, service]) {
      const { error } = await client.from('newsletter_subscribers').select('email');
      expect(error?.code).toBe(NOT_IN_THE_API);
    }
  });
});

describe('blog_posts', () => {
  it('show published posts to everyone, hide drafts, and are written only by the service role', async (ctx) => {
    if (remote) {
      // The seed is optional on a deployment (README, "Deploying"); this check counts its posts.
      const seeded = await service.from('blog_posts').select('id').lte('id', 5);
      if ((seeded.data ?? []).length < 5)
        ctx.skip('needs the seed blog posts: apply supabase/seed.sql');
    }
    const draft = await service
      .from('blog_posts')
      .insert({ title: 'Draft', category: 'tips', published: false })
      .select('id')
      .single();
    expect(draft.error).toBeNull();
    try {
      for (const client of [anonClient, alice.client]) {
        const { data, error } = await client.from('blog_posts').select('id, published').order('id');
        expect(error).toBeNull();
        expect(data!.length).toBeGreaterThanOrEqual(5);
        expect(data!.every((p) => p.published)).toBe(true);
        expect(
          (await client.from('blog_posts').select('id').eq('id', draft.data!.id)).data,
        ).toEqual([]);
        const write = await client.from('blog_posts').insert({ title: 'x', category: 'tips' });
        expect(write.error?.code).toBe(PERMISSION_DENIED);
      }
    } finally {
      await service.from('blog_posts').delete().eq('id', draft.data!.id);
    }
  });
});

/** What one subscriber received, with a way to wait for one particular entry. */
class Inbox {
  readonly entries: Entry[] = [];
  private waiters: { id: string; resolve: (entry: Entry) => void }[] = [];

  push(entry: Entry) {
    this.entries.push(entry);
    for (const w of this.waiters.filter((w) => w.id === entry.id)) w.resolve(entry);
    this.waiters = this.waiters.filter((w) => w.id !== entry.id);
  }

  /** Resolves when the entry arrives; rejects after `deadlineMs` if given. */
  waitFor(id: string, deadlineMs?: number): Promise<Entry> {
    const found = this.entries.find((e) => e.id === id);
    if (found) return Promise.resolve(found);
    return new Promise<Entry>((resolve, reject) => {
      const timer =
        deadlineMs === undefined
          ? undefined
          : setTimeout(
              () => reject(new Error(`entry ${id} did not arrive within ${deadlineMs} ms`)),
              deadlineMs,
            );
      this.waiters.push({
        id,
        resolve: (entry) => {
          clearTimeout(timer);
          resolve(entry);
        },
      });
    });
  }
}

describe('realtime', () => {
  /** Resolves once the channel is joined and its postgres_changes subscription is live. */
  function listen(client: SupabaseClient, name: string, inbox: Inbox) {
    return new Promise<RealtimeChannel>((resolve, reject) => {
      let joined = false;
      let changesReady = false;
      const channel = client
        .channel(name)
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'entries' },
          (payload) => inbox.push(payload.new as Entry),
        )
        .on('system', {}, (message: { extension?: string; status?: string; message?: string }) => {
          if (message.extension !== 'postgres_changes') return;
          if (message.status === 'ok') {
            changesReady = true;
            if (joined) resolve(channel);
          } else reject(new Error(`${name}: ${message.message}`));
        })
        .subscribe((status, err) => {
          if (status === 'SUBSCRIBED') {
            joined = true;
            if (changesReady) resolve(channel);
          } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
            reject(err ?? new Error(`${name}: ${status}`));
        });
    });
  }

  it('delivers a new entry to its owner within a second, and to nobody else', async () => {
    const forAlice = new Inbox();
    const forBob = new Inbox();
    const forVisitor = new Inbox();
    await Promise.all([
      listen(alice.client, 'entries-alice', forAlice),
      listen(bob.client, 'entries-bob', forBob),
      listen(anonClient, 'entries-visitor', forVisitor),
    ]);

    // The deadline runs from before the insert, so it covers the write and the delivery.
    const insertedAt = Date.now();
    const entry = await serviceInsertEntry(aliceForm, { message: 'Realtime for Alice' });
    const aliceId = entry.id;
    const delivered = await forAlice.waitFor(
      aliceId,
      REALTIME_DEADLINE_MS - (Date.now() - insertedAt),
    );
    expect(delivered).toMatchObject({
      id: entry.id,
      form_id: aliceForm,
      user_id: alice.id,
      message: 'Realtime for Alice',
    });

    // Changes are delivered in commit order, so once Bob has his own later entry, Alice's entry
    // has already been considered for him and withheld.
    const bobsEntry = await serviceInsertEntry(bobForm, { message: 'Realtime for Bob' });
    await forBob.waitFor(bobsEntry.id);
    // The visitor's socket is separate; give it a moment to flush anything it might have been sent.
    await new Promise((resolve) => setTimeout(resolve, 250));

    expect(forBob.entries.map((e) => e.id)).not.toContain(aliceId);
    expect(forBob.entries.every((e) => e.user_id === bob.id)).toBe(true);
    expect(forAlice.entries.map((e) => e.id)).not.toContain(bobsEntry.id);
    expect(forAlice.entries.every((e) => e.user_id === alice.id)).toBe(true);
    expect(forVisitor.entries).toEqual([]);
  });
});
