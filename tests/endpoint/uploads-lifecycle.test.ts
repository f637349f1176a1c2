// The lifecycle of stored files: whichever way an entry goes (its owner deletes it, or its form,
// or the account; a retention rule or forward-only mode takes it), the sweep of the scheduled pass
// removes its objects from Storage and clears private.deleted_files. A post that died after
// writing objects leaves a pending upload, whose objects the sweep removes after an hour; one whose
// entry committed keeps them. A Storage failure leaves the rows for the next pass.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FILES_BUCKET,
  storageFileStore,
} from '../../supabase/functions/forms/uploads/file-store.ts';
import {
  createFileSweep,
  sweepDatabase,
  type FileSweepReport,
  type SweepFiles,
} from '../../supabase/functions/forms/uploads/sweep.ts';
import { commitAsService, committed, superuserPool, sweepRetentionIn } from '../support/db.ts';
import { createForm, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { rawRequest } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const service = serviceClient();
const bucket = service.storage.from(FILES_BUCKET);
const store = storageFileStore({ url: stack.apiUrl, serviceKey: stack.serviceRoleKey });
let pool: pg.Pool;
const users: string[] = [];
const logged: string[] = [];

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [users]);
  await pool?.end();
});

/** One pass of the sweep as `_deliver` runs it, over the service role's REST and Storage. */
const sweepWith = (files: SweepFiles) =>
  createFileSweep({
    db: sweepDatabase(service),
    files,
    log: (message) => logged.push(message),
  });
const sweep = sweepWith(store);

async function owner(name: string): Promise<{ user: TestUser; formId: string }> {
  const user = await signUp(name);
  users.push(user.id);
  const formId = await createForm(user.client, `${name}'s files`);
  const { error } = await user.client
    .from('form_uploads')
    .insert({ form_id: formId, user_id: user.id, enabled: true, kinds: ['image'] });
  if (error) throw error;
  return { user, formId };
}

/** Bytes that start as a PNG does. */
const png = (n: number) =>
  Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array(n).fill(n % 251)]);

/** Writes two objects under the entry's folder with the service role, as the endpoint does. */
async function writeObjects(userId: string, formId: string, entryId: string): Promise<string[]> {
  const keys = [1, 2].map((n) => `${userId}/${formId}/${entryId}/${n}-x.png`);
  for (const [i, key] of keys.entries()) {
    const { error } = await bucket.upload(key, png(100 + i), { contentType: 'image/png' });
    if (error) throw error;
  }
  return keys;
}

/**
 * An entry with two stored files: begin_uploads, the objects, then accept_post with their rows
 * (`p_files`), as the endpoint commits a post. Returns the entry's id and its objects' keys.
 */
async function entryWithFiles(userId: string, formId: string) {
  const entryId = randomUUID();
  await asService('select public.begin_uploads($1, $2)', [entryId, formId]);
  const keys = await writeObjects(userId, formId, entryId);
  const files = keys.map((key, i) => ({
    position: i + 1,
    object_key: key,
    name: 'x.png',
    kind: 'image',
    mime_type: 'image/png',
    size: png(100 + i).length,
  }));
  const [{ r }] = await asService<{ r: { status: string } }>(
    `select public.accept_post(
       p_seen => (select jsonb_build_object('id', f.id, 'name', f.name,
                   'target_email', f.target_email, 'allowed_origin', f.allowed_origin,
                   'redirect_url', f.redirect_url, 'captcha_provider', f.captcha_provider)
                    from public.forms f where f.id = $2),
       p_entry_id => $1, p_form_id => $2, p_ip_hash => $3, p_name => 'Ada',
       p_email => 'ada@example.test', p_message => 'files attached', p_data => '{}',
       p_is_spam => false, p_notification => null, p_per_minute => 1000, p_per_day => 1000,
       p_form_per_minute => null, p_account_per_hour => null, p_account_per_day => null,
       p_files => $4) as r`,
    [entryId, formId, `lifecycle-${randomUUID()}`, JSON.stringify(files)],
  );
  expect(r.status).toBe('accepted');
  await expectStored(keys);
  return { entryId, keys };
}

/** Runs `sql` as the service role, as the function's direct connection does. */
const asService = <T extends pg.QueryResultRow>(sql: string, params: unknown[]) =>
  commitAsService<T>(pool, sql, params);

const folderOf = (key: string) => key.slice(0, key.lastIndexOf('/'));

/** Names Storage lists in the key's folder. */
async function listed(key: string): Promise<string[]> {
  const { data, error } = await bucket.list(folderOf(key));
  if (error) throw error;
  return data.map((o) => o.name);
}

async function expectStored(keys: string[]) {
  for (const key of keys) {
    expect(await listed(key), key).toContain(key.split('/').pop());
    const { data, error } = await bucket.download(key);
    expect(error, key).toBeNull();
    expect(data?.size, key).toBeGreaterThan(8);
  }
}

async function expectGone(keys: string[]) {
  for (const key of keys) {
    expect(await listed(key), key).not.toContain(key.split('/').pop());
    const { data, error } = await bucket.download(key);
    expect(data, key).toBeNull();
    expect(error, key).not.toBeNull();
  }
}

/** Keys still waiting in private.deleted_files, of these or (without keys) of anyone's. */
async function waiting(keys?: string[]): Promise<number> {
  const { rows } = keys
    ? await pool.query<{ n: number }>(
        'select count(*)::int as n from private.deleted_files where object_key = any($1)',
        [keys],
      )
    : await pool.query<{ n: number }>('select count(*)::int as n from private.deleted_files');
  return rows[0]!.n;
}

const pendingRows = async (entryId: string) =>
  (await pool.query('select 1 from private.pending_uploads where entry_id = $1', [entryId]))
    .rowCount;

/** The deletion recorded the keys, nothing removed the objects yet; the pass removes them all. */
async function expectSweptAway(keys: string[], pass: () => Promise<unknown> = sweep) {
  expect(await waiting(keys)).toBe(keys.length);
  await expectStored(keys);
  await pass();
  await expectGone(keys);
  expect(await waiting(keys)).toBe(0);
  expect(await waiting()).toBe(0);
}

/**
 * Sets the form's retention rule and runs sweep_retention() in one transaction, as the service
 * role. The stack's own scheduled sweep (every minute) cannot see the rule before it commits, so
 * the counts this answers are this sweep's, whenever the scheduled one happens to run.
 */
async function ruleThenSweep(
  userId: string,
  formId: string,
  rule: { mode: 'days'; days: number } | { mode: 'forward_only' },
): Promise<Record<string, number>> {
  return committed(pool, async (client) => {
    await client.query(
      'insert into public.form_retention (form_id, user_id, mode, days) values ($1, $2, $3, $4)',
      [formId, userId, rule.mode, rule.mode === 'days' ? rule.days : null],
    );
    return sweepRetentionIn<Record<string, number>>(client);
  });
}

/** The scheduled pass through the forms function, as the scheduler calls it. */
async function deliverRoute(): Promise<{ ok: boolean; files?: FileSweepReport }> {
  const res = await rawRequest(`${stack.apiUrl}/functions/v1/forms/_deliver`, {
    headers: {
      authorization: `Bearer ${stack.serviceRoleKey}`,
      apikey: stack.serviceRoleKey,
    },
  });
  expect(res.status, res.body).toBe(200);
  return JSON.parse(res.body);
}

describe('the objects of deleted entries', () => {
  it('are removed once the owner deletes the message (supabase-js)', async () => {
    const { user, formId } = await owner('Ada');
    const { entryId, keys } = await entryWithFiles(user.id, formId);
    const { error, count } = await user.client
      .from('entries')
      .delete({ count: 'exact' })
      .eq('id', entryId);
    expect(error).toBeNull();
    expect(count).toBe(1);
    await expectSweptAway(keys);
  });

  it('are removed once the owner deletes the form', async () => {
    const { user, formId } = await owner('Grace');
    const first = await entryWithFiles(user.id, formId);
    const second = await entryWithFiles(user.id, formId);
    const { error } = await user.client.from('forms').delete().eq('id', formId);
    expect(error).toBeNull();
    await expectSweptAway([...first.keys, ...second.keys]);
  });

  it('are removed once the owner deletes the account', async () => {
    const { user, formId } = await owner('Hedy');
    const { keys } = await entryWithFiles(user.id, formId);
    const { error } = await user.client.rpc('delete_own_account');
    expect(error).toBeNull();
    const { rowCount } = await pool.query('select 1 from auth.users where id = $1', [user.id]);
    expect(rowCount).toBe(0);
    await expectSweptAway(keys);
  });

  it('are removed once a retention rule deletes old entries', async () => {
    const { user, formId } = await owner('Katherine');
    const old = await entryWithFiles(user.id, formId);
    const recent = await entryWithFiles(user.id, formId);
    await pool.query(
      `update public.entries set created_at = now() - interval '31 days' where id = $1`,
      [old.entryId],
    );
    const swept = await ruleThenSweep(user.id, formId, { mode: 'days', days: 30 });
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    await expectSweptAway(old.keys);
    // The entry within the rule keeps its files.
    await expectStored(recent.keys);
  });

  it('are removed once forward-only mode deletes a forwarded entry', async () => {
    const { user, formId } = await owner('Margaret');
    const { entryId, keys } = await entryWithFiles(user.id, formId);
    // Nothing is queued for it (no notification, no webhook), so the rule takes it at once.
    const swept = await ruleThenSweep(user.id, formId, { mode: 'forward_only' });
    expect(swept.forwarded).toBeGreaterThanOrEqual(1);
    expect(
      (await pool.query('select 1 from public.entries where id = $1', [entryId])).rowCount,
    ).toBe(0);
    await expectSweptAway(keys);
  });

  it('are removed by the forms function’s scheduled pass (`_deliver`)', async () => {
    const { user, formId } = await owner('Mary');
    const { entryId, keys } = await entryWithFiles(user.id, formId);
    await user.client.from('entries').delete().eq('id', entryId);
    await expectSweptAway(keys, async () => {
      const answer = await deliverRoute();
      expect(answer.ok).toBe(true);
      expect(answer.files?.failed).toBe(0);
    });
  });

  it('stay recorded when Storage fails, and go with the next pass', async () => {
    const { user, formId } = await owner('Radia');
    const { entryId, keys } = await entryWithFiles(user.id, formId);
    await user.client.from('entries').delete().eq('id', entryId);
    const down: SweepFiles = {
      list: () => Promise.reject(new Error('Storage is away')),
      remove: () => Promise.reject(new Error('Storage is away')),
    };
    const report = await sweepWith(down)();
    expect(report.deletedFiles).toBe(0);
    expect(report.failed).toBeGreaterThanOrEqual(1);
    expect(logged.some((m) => m.includes('Storage is away'))).toBe(true);
    expect(await waiting(keys)).toBe(keys.length);
    await expectSweptAway(keys);
  });
});

describe('the objects of pending uploads', () => {
  /** A post that wrote its objects and died before accept_post: its record stays behind. */
  async function abandoned(userId: string, formId: string) {
    const entryId = randomUUID();
    await asService('select public.begin_uploads($1, $2)', [entryId, formId]);
    return { entryId, keys: await writeObjects(userId, formId, entryId) };
  }
  const backdate = (entryId: string, interval: string) =>
    pool.query(
      `update private.pending_uploads set created_at = now() - $2::interval where entry_id = $1`,
      [entryId, interval],
    );

  it('are removed after an hour, then the record', async () => {
    const { user, formId } = await owner('Barbara');
    const { entryId, keys } = await abandoned(user.id, formId);
    await backdate(entryId, '61 minutes');
    expect(await pendingRows(entryId)).toBe(1);
    await expectStored(keys);
    const report = await sweep();
    expect(report.pendingObjects).toBeGreaterThanOrEqual(keys.length);
    await expectGone(keys);
    expect(await pendingRows(entryId)).toBe(0);
  });

  it('are kept within the hour (the post may still be running)', async () => {
    const { user, formId } = await owner('Frances');
    const { entryId, keys } = await abandoned(user.id, formId);
    await backdate(entryId, '50 minutes');
    await sweep();
    await expectStored(keys);
    expect(await pendingRows(entryId)).toBe(1);
    // Left clean for the other tests' passes.
    await backdate(entryId, '2 hours');
    await sweep();
    await expectGone(keys);
  });

  it('are kept when the entry committed: only the record goes', async () => {
    const { user, formId } = await owner('Shafi');
    const { entryId, keys } = await entryWithFiles(user.id, formId);
    // A record left behind for an entry that did commit (accept_post clears it in its own
    // transaction; this stands for any path that would not).
    await pool.query(
      `insert into private.pending_uploads (entry_id, user_id, form_id, created_at)
       values ($1, $2, $3, now() - interval '2 hours')`,
      [entryId, user.id, formId],
    );
    const report = await sweep();
    expect(report.pendingKept).toBeGreaterThanOrEqual(1);
    expect(await pendingRows(entryId)).toBe(0);
    await expectStored(keys);
    const { rowCount } = await pool.query('select 1 from public.entry_files where entry_id = $1', [
      entryId,
    ]);
    expect(rowCount).toBe(2);
  });

  it('stay, with the record, when Storage fails, and go with the next pass', async () => {
    const { user, formId } = await owner('Anita');
    const { entryId, keys } = await abandoned(user.id, formId);
    await backdate(entryId, '2 hours');
    const down: SweepFiles = {
      list: store.list,
      remove: () => Promise.reject(new Error('Storage refused the remove')),
    };
    const report = await sweepWith(down)();
    expect(report.failed).toBeGreaterThanOrEqual(1);
    await expectStored(keys);
    expect(await pendingRows(entryId)).toBe(1);
    await sweep();
    await expectGone(keys);
    expect(await pendingRows(entryId)).toBe(0);
  });
});

describe('the sweep’s database functions', () => {
  it('are the service role’s alone', async () => {
    const { user } = await owner('Eve');
    const calls: [string, Record<string, unknown>][] = [
      ['claim_deleted_files', {}],
      ['finish_deleted_files', { p_keys: [] }],
      ['claim_pending_uploads', {}],
      ['finish_pending_uploads', { p_entry_ids: [] }],
    ];
    for (const [name, args] of calls) {
      const { error } = await user.client.rpc(name, args);
      expect(error, name).not.toBeNull();
      const anon = await rawRequest(`${stack.apiUrl}/rest/v1/rpc/${name}`, {
        headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      expect(anon.status, name).toBeGreaterThanOrEqual(400);
      const { error: serviceError } = await service.rpc(name, args);
      expect(serviceError, name).toBeNull();
    }
  });
});
