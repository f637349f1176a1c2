// File uploads under RLS, through supabase-js as two real signed-up users and a visitor: each
// owner reads and writes only their own forms' upload settings, within the deployment's ceilings;
// an entry's files (rows and objects in the private `submission-files` bucket) are the owner's to
// read and nobody else's, anon included; only the service role writes them; deleting the entry
// leaves the object's key for the Storage sweep (Storage refuses deletes from its tables).
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superuserPool } from '../support/db.ts';
import {
  createForm,
  newClient,
  serviceClient,
  serviceInsertEntry,
  signUp,
  type TestUser,
} from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

const BUCKET = 'submission-files';
let pool: pg.Pool;
let alice: TestUser;
let bob: TestUser;
let aliceForm: string;
let bobForm: string;
let entryId: string;
let key: string;
const bytes = new TextEncoder().encode('%PDF-1.7 a small file');

beforeAll(async () => {
  pool = superuserPool(testStack().dbUrl);
  [alice, bob] = await Promise.all([signUp('Alice Files'), signUp('Bob Files')]);
  [aliceForm, bobForm] = await Promise.all([
    createForm(alice.client, 'Alice files'),
    createForm(bob.client, 'Bob files'),
  ]);
  // What the endpoint does for a post with a file: the object, then the entry and its file row.
  const service = serviceClient();
  const entry = await serviceInsertEntry<{ id: string }>(service, aliceForm);
  entryId = entry.id;
  key = `${alice.id}/${aliceForm}/${entryId}/1-cv.pdf`;
  const uploaded = await service.storage
    .from(BUCKET)
    .upload(key, bytes, { contentType: 'application/pdf' });
  if (uploaded.error) throw uploaded.error;
  const row = await service.from('entry_files').insert({
    entry_id: entryId,
    user_id: alice.id,
    form_id: aliceForm,
    position: 1,
    object_key: key,
    name: 'cv.pdf',
    kind: 'pdf',
    mime_type: 'application/pdf',
    size: bytes.length,
  });
  if (row.error) throw row.error;
});

afterAll(async () => {
  await serviceClient().storage.from(BUCKET).remove([key]);
  await pool?.query('delete from auth.users where id = any($1)', [
    [alice?.id, bob?.id].filter(Boolean),
  ]);
  await pool?.end();
});

describe('upload settings', () => {
  it('lets the owner turn uploads on for their form, owned by them whatever they send', async () => {
    const saved = await alice.client
      .from('form_uploads')
      .upsert(
        { form_id: aliceForm, enabled: true, kinds: ['pdf', 'image'], max_files: 2 },
        { onConflict: 'form_id' },
      )
      .select('form_id, user_id, enabled, kinds, max_files');
    expect(saved.data).toEqual([
      {
        form_id: aliceForm,
        user_id: alice.id,
        enabled: true,
        kinds: ['pdf', 'image'],
        max_files: 2,
      },
    ]);
  });

  it("refuses settings beyond the deployment's ceilings and unknown kinds", async () => {
    for (const change of [
      { max_file_bytes: 10 * 1024 * 1024 + 1 },
      { max_total_bytes: 25 * 1024 * 1024 + 1 },
      { max_files: 11 },
      { kinds: ['exe'] },
    ]) {
      const { error } = await alice.client
        .from('form_uploads')
        .update(change)
        .eq('form_id', aliceForm);
      expect(error?.code, JSON.stringify(change)).toBe('23514');
    }
  });

  it("never shows or changes another owner's settings", async () => {
    expect((await bob.client.from('form_uploads').select('form_id')).data).toEqual([]);
    const updated = await bob.client
      .from('form_uploads')
      .update({ enabled: false })
      .eq('form_id', aliceForm)
      .select();
    expect(updated.data).toEqual([]);
    const onAlices = await bob.client
      .from('form_uploads')
      .insert({ form_id: aliceForm, enabled: true });
    expect(onAlices.error?.code).toBe('42501');
    const anon = await newClient().from('form_uploads').select('form_id');
    expect(anon.data ?? []).toEqual([]);
    // His own form is his to set.
    const own = await bob.client.from('form_uploads').insert({ form_id: bobForm, enabled: true });
    expect(own.error).toBeNull();
  });
});

describe('entry files', () => {
  it('shows the owner their files, and nobody else', async () => {
    const mine = await alice.client.from('entry_files').select('entry_id, name, size');
    expect(mine.data).toEqual([{ entry_id: entryId, name: 'cv.pdf', size: bytes.length }]);
    expect((await bob.client.from('entry_files').select('id')).data).toEqual([]);
    expect((await newClient().from('entry_files').select('id')).data ?? []).toEqual([]);
  });

  it('lets only the service role write file rows', async () => {
    const forged = await alice.client.from('entry_files').insert({
      entry_id: entryId,
      user_id: alice.id,
      form_id: aliceForm,
      position: 2,
      object_key: `${alice.id}/${aliceForm}/${entryId}/2-x.pdf`,
      name: 'x.pdf',
      kind: 'pdf',
      mime_type: 'application/pdf',
      size: 1,
    });
    expect(forged.error?.code).toBe('42501');
  });

  it("keeps a file's key under its owner, form and entry", async () => {
    const elsewhere = await serviceClient()
      .from('entry_files')
      .insert({
        entry_id: entryId,
        user_id: alice.id,
        form_id: aliceForm,
        position: 3,
        object_key: `${bob.id}/${aliceForm}/${entryId}/3-x.pdf`,
        name: 'x.pdf',
        kind: 'pdf',
        mime_type: 'application/pdf',
        size: 1,
      });
    expect(elsewhere.error?.code).toBe('23514');
  });
});

describe('the objects in Storage', () => {
  it('lets the owner download, list and sign their file', async () => {
    const files = alice.client.storage.from(BUCKET);
    const downloaded = await files.download(key);
    expect(new Uint8Array(await downloaded.data!.arrayBuffer())).toEqual(bytes);
    const listed = await files.list(`${alice.id}/${aliceForm}/${entryId}`);
    expect(listed.data?.map((o) => o.name)).toEqual(['1-cv.pdf']);
    const signed = await files.createSignedUrl(key, 60);
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data!.signedUrl);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('hides it from another user and from a visitor: no download, list, signature or upload', async () => {
    for (const client of [bob.client, newClient()]) {
      const files = client.storage.from(BUCKET);
      expect((await files.download(key)).error).not.toBeNull();
      expect((await files.list(`${alice.id}/${aliceForm}/${entryId}`)).data ?? []).toEqual([]);
      expect((await files.createSignedUrl(key, 60)).error).not.toBeNull();
      const upload = await files.upload(`${alice.id}/${aliceForm}/${entryId}/9-x.pdf`, bytes);
      expect(upload.error).not.toBeNull();
    }
    // Not even the owner writes or removes: only the endpoint and the sweep do.
    const own = await alice.client.storage
      .from(BUCKET)
      .upload(`${alice.id}/${aliceForm}/${entryId}/9-x.pdf`, bytes);
    expect(own.error).not.toBeNull();
    const removed = await alice.client.storage.from(BUCKET).remove([key]);
    expect(removed.data ?? []).toEqual([]);
    expect((await alice.client.storage.from(BUCKET).download(key)).error).toBeNull();
  });

  it("records a deleted entry's object for the sweep", async () => {
    const extra = await serviceInsertEntry<{ id: string }>(serviceClient(), aliceForm);
    const extraKey = `${alice.id}/${aliceForm}/${extra.id}/1-a.txt`;
    await serviceClient().from('entry_files').insert({
      entry_id: extra.id,
      user_id: alice.id,
      form_id: aliceForm,
      position: 1,
      object_key: extraKey,
      name: 'a.txt',
      kind: 'text',
      mime_type: 'text/plain',
      size: 1,
    });
    await alice.client.from('entries').delete().eq('id', extra.id);
    const { rows } = await pool.query('select 1 from private.deleted_files where object_key = $1', [
      extraKey,
    ]);
    expect(rows).toHaveLength(1);
  });
});
