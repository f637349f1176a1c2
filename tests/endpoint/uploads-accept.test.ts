// A post's files in the database: begin_uploads() records the entry before its first object is
// written; accept_post() stores the file rows with the entry in one transaction and clears that
// record; files that break a rule (a key outside the entry's folder, an unknown kind, too many)
// store nothing at all, the entry included; a repeated post stores no second set.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAsService, superuserPool } from '../support/db.ts';
import { seedForm, type SeededForm } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let form: SeededForm;
let seen: unknown;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  form = await seedForm(pool, 'Files');
  // accept_post stores files only for a form whose uploads are on.
  await pool.query(
    'insert into public.form_uploads (form_id, user_id, enabled) values ($1, $2, true)',
    [form.formId, form.userId],
  );
  const { rows } = await pool.query(
    `select jsonb_build_object('id', f.id, 'name', f.name, 'target_email', f.target_email,
       'allowed_origin', f.allowed_origin, 'redirect_url', f.redirect_url,
       'captcha_provider', f.captcha_provider) seen from public.forms f where f.id = $1`,
    [form.formId],
  );
  seen = rows[0].seen;
});
afterAll(() => pool?.end());

/** Runs `sql` as the service role, as the function's direct connection does. */
const asService = <T extends pg.QueryResultRow>(sql: string, params: unknown[]) =>
  commitAsService<T>(pool, sql, params);

const fileOf = (entryId: string, position: number, over: Record<string, unknown> = {}) => ({
  position,
  object_key: `${form.userId}/${form.formId}/${entryId}/${position}-cv.pdf`,
  name: 'cv.pdf',
  kind: 'pdf',
  mime_type: 'application/pdf',
  size: 1234,
  ...over,
});

function post(entryId: string, files: unknown, idempotencyKey: string | null = null) {
  return asService<{ r: { status: string; repeated?: boolean } }>(
    `select public.accept_post(p_seen => $1, p_entry_id => $2, p_form_id => $3,
       p_ip_hash => $4, p_name => 'Ada', p_email => 'ada@example.test', p_message => 'hi',
       p_data => '{}', p_is_spam => false, p_notification => null, p_per_minute => 1000,
       p_per_day => 1000, p_form_per_minute => null, p_account_per_hour => null,
       p_account_per_day => null, p_idempotency_key => $5, p_files => $6) as r`,
    [seen, entryId, form.formId, `files-${randomUUID()}`, idempotencyKey, JSON.stringify(files)],
  ).then((rows) => rows[0]!.r);
}

const pending = async (entryId: string) =>
  (await pool.query('select 1 from private.pending_uploads where entry_id = $1', [entryId]))
    .rowCount;
const stored = async (entryId: string) =>
  (
    await pool.query(
      `select (select count(*) from public.entries where id = $1)::int as entries,
              (select count(*) from public.entry_files where entry_id = $1)::int as files`,
      [entryId],
    )
  ).rows[0];

describe('accept_post with files', () => {
  it('stores the file rows with the entry and clears the pending record', async () => {
    const entryId = randomUUID();
    await asService('select public.begin_uploads($1, $2)', [entryId, form.formId]);
    expect(await pending(entryId)).toBe(1);
    const answer = await post(entryId, [fileOf(entryId, 1), fileOf(entryId, 2, { kind: 'text' })]);
    expect(answer.status).toBe('accepted');
    expect(await stored(entryId)).toEqual({ entries: 1, files: 2 });
    expect(await pending(entryId)).toBe(0);
    const { rows } = await pool.query(
      'select user_id, form_id from public.entry_files where entry_id = $1 limit 1',
      [entryId],
    );
    expect(rows[0]).toEqual({ user_id: form.userId, form_id: form.formId });
  });

  it('stores nothing, the entry included, when a file breaks a rule', async () => {
    const cases: [string, (entryId: string) => unknown][] = [
      ['a key outside the entry', (id) => [fileOf(id, 1, { object_key: `${randomUUID()}/x` })]],
      ['an unknown kind', (id) => [fileOf(id, 1, { kind: 'exe' })]],
      ['too large', (id) => [fileOf(id, 1, { size: 10 * 1024 * 1024 + 1 })]],
      ['two at one position', (id) => [fileOf(id, 1), fileOf(id, 1)]],
      ['more than ten', (id) => Array.from({ length: 11 }, (_, i) => fileOf(id, i + 1))],
      ['not a list', () => ({ position: 1 })],
    ];
    for (const [what, files] of cases) {
      const entryId = randomUUID();
      await asService('select public.begin_uploads($1, $2)', [entryId, form.formId]);
      await expect(post(entryId, files(entryId)), what).rejects.toThrow();
      expect(await stored(entryId), what).toEqual({ entries: 0, files: 0 });
      // The record stays for the sweep, which removes whatever objects were written.
      expect(await pending(entryId), what).toBe(1);
    }
  });

  it('stores no second set of files for a repeated post', async () => {
    const [first, again] = [randomUUID(), randomUUID()];
    const key = `files-${randomUUID()}`;
    expect((await post(first, [fileOf(first, 1)], key)).status).toBe('accepted');
    const repeated = await post(again, [fileOf(again, 1)], key);
    expect(repeated.repeated).toBe(true);
    expect(await stored(again)).toEqual({ entries: 0, files: 0 });
    expect(await stored(first)).toEqual({ entries: 1, files: 1 });
  });

  it("counts the files against the owner's storage and refuses what does not fit", async () => {
    const other = await seedForm(pool, 'Quota');
    await pool.query(
      'insert into public.form_uploads (form_id, user_id, enabled) values ($1, $2, true)',
      [other.formId, other.userId],
    );
    const { rows: quota } = await pool.query<{ q: string }>(
      'select storage_quota_bytes::text q from private.upload_settings',
    );
    const quotaBytes = Number(quota[0]!.q);
    await pool.query('insert into private.storage_usage (user_id, bytes) values ($1, $2)', [
      other.userId,
      quotaBytes - 1500,
    ]);
    const used = async () =>
      Number(
        (
          await pool.query<{ b: string }>(
            'select bytes::text b from private.storage_usage where user_id = $1',
            [other.userId],
          )
        ).rows[0]!.b,
      );
    const { rows: seenRows } = await pool.query(
      `select jsonb_build_object('id', f.id, 'name', f.name, 'target_email', f.target_email,
         'allowed_origin', f.allowed_origin, 'redirect_url', f.redirect_url,
         'captcha_provider', f.captcha_provider) seen from public.forms f where f.id = $1`,
      [other.formId],
    );
    const postOther = (entryId: string, key: string | null = null) =>
      asService<{ r: { status: string; repeated?: boolean } }>(
        `select public.accept_post(p_seen => $1, p_entry_id => $2, p_form_id => $3,
           p_ip_hash => $4, p_name => null, p_email => null, p_message => 'hi', p_data => '{}',
           p_is_spam => false, p_notification => null, p_per_minute => 1000, p_per_day => 1000,
           p_form_per_minute => null, p_account_per_hour => null, p_account_per_day => null,
           p_idempotency_key => $5, p_files => $6) as r`,
        [
          seenRows[0].seen,
          entryId,
          other.formId,
          `quota-${randomUUID()}`,
          key,
          JSON.stringify([
            {
              position: 1,
              object_key: `${other.userId}/${other.formId}/${entryId}/1-cv.pdf`,
              name: 'cv.pdf',
              kind: 'pdf',
              mime_type: 'application/pdf',
              size: 1234,
            },
          ]),
        ],
      ).then((rows) => rows[0]!.r);

    const first = randomUUID();
    const begun = await asService<{ b: { user_id: string; storage_left: number } }>(
      'select public.begin_uploads($1, $2) as b',
      [first, other.formId],
    );
    expect(begun[0]!.b).toEqual({ user_id: other.userId, storage_left: 1500 });
    expect((await postOther(first, 'k1')).status).toBe('accepted');
    expect(await used()).toBe(quotaBytes - 266);

    // A repeat stores nothing and takes nothing.
    expect((await postOther(randomUUID(), 'k1')).repeated).toBe(true);
    expect(await used()).toBe(quotaBytes - 266);

    const second = randomUUID();
    expect((await postOther(second)).status).toBe('storage_full');
    expect(await stored(second)).toEqual({ entries: 0, files: 0 });
    expect(await used()).toBe(quotaBytes - 266);

    // Deleting the message gives its bytes back at once.
    await pool.query('delete from public.entries where id = $1', [first]);
    expect(await used()).toBe(quotaBytes - 1500);
    expect((await postOther(second)).status).toBe('accepted');
  });

  it('stores no files for a form whose uploads were turned off since it was read', async () => {
    await pool.query('update public.form_uploads set enabled = false where form_id = $1', [
      form.formId,
    ]);
    try {
      const entryId = randomUUID();
      expect((await post(entryId, [fileOf(entryId, 1)])).status).toBe('uploads_off');
      expect(await stored(entryId)).toEqual({ entries: 0, files: 0 });
    } finally {
      await pool.query('update public.form_uploads set enabled = true where form_id = $1', [
        form.formId,
      ]);
    }
  });

  it('lets only the service role begin uploads', async () => {
    for (const role of ['authenticated', 'anon']) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(`set local role ${role}`);
        await expect(
          client.query('select public.begin_uploads($1, $2)', [randomUUID(), form.formId]),
          role,
        ).rejects.toMatchObject({ code: '42501' });
      } finally {
        await client.query('rollback');
        client.release();
      }
    }
  });
});
