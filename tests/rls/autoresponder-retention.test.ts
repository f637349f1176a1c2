// Autoresponder and retention settings under RLS, through supabase-js as two real signed-up users
// and a visitor: each owner reads and writes only their own forms' settings, nobody picks the
// owner, the bookkeeping of sent replies and the sweep are the service role's alone. A form that is
// not the caller's gets row-level security's answer whether it exists or not, and CAPTCHA set on
// one answers 404 like a missing form.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superuserPool } from '../support/db.ts';
import { createForm, newClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

let pool: pg.Pool;
let alice: TestUser;
let bob: TestUser;
let aliceForm: string;
let bobForm: string;

beforeAll(async () => {
  pool = superuserPool(testStack().dbUrl);
  [alice, bob] = await Promise.all([signUp('Alice Replies'), signUp('Bob Replies')]);
  [aliceForm, bobForm] = await Promise.all([
    createForm(alice.client, 'Alice replies'),
    createForm(bob.client, 'Bob replies'),
  ]);
  const auto = await alice.client
    .from('form_autoresponders')
    .insert({ form_id: aliceForm, enabled: true, subject: 'Hi {{name}}', body: 'Thanks' });
  if (auto.error) throw auto.error;
  const rule = await alice.client
    .from('form_retention')
    .insert({ form_id: aliceForm, mode: 'days', days: 30 });
  if (rule.error) throw rule.error;
});

afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [
    [alice?.id, bob?.id].filter(Boolean),
  ]);
  await pool?.end();
});

describe('autoresponder and retention RLS', () => {
  it('lets the owner read and change their settings, owned by them whatever they send', async () => {
    const auto = await alice.client.from('form_autoresponders').select('form_id, user_id, subject');
    expect(auto.data).toEqual([{ form_id: aliceForm, user_id: alice.id, subject: 'Hi {{name}}' }]);
    const changed = await alice.client
      .from('form_retention')
      .update({ mode: 'forward_only', days: null })
      .eq('form_id', aliceForm)
      .select('mode, days, user_id');
    expect(changed.data).toEqual([{ mode: 'forward_only', days: null, user_id: alice.id }]);
  });

  it('lets the owner save by upsert, as the settings do, and only on their own form', async () => {
    for (const body of ['First', 'Second']) {
      const saved = await alice.client
        .from('form_autoresponders')
        .upsert(
          { form_id: aliceForm, enabled: true, subject: 'Hi', body },
          { onConflict: 'form_id' },
        )
        .select('body');
      expect(saved.data).toEqual([{ body }]);
    }
    const onBobs = await alice.client
      .from('form_autoresponders')
      .upsert(
        { form_id: bobForm, enabled: true, subject: 'Hi', body: 'x' },
        { onConflict: 'form_id' },
      );
    expect(onBobs.error?.code).toBe('42501');
    await alice.client
      .from('form_autoresponders')
      .update({ body: 'Thanks' })
      .eq('form_id', aliceForm);
  });

  it("never shows or changes another owner's settings", async () => {
    for (const table of ['form_autoresponders', 'form_retention']) {
      expect((await bob.client.from(table).select('form_id')).data).toEqual([]);
      const updated = await bob.client
        .from(table)
        .update(table === 'form_retention' ? { days: 1, mode: 'days' } : { body: 'Bob was here' })
        .eq('form_id', aliceForm)
        .select('form_id');
      expect(updated.data).toEqual([]);
      const deleted = await bob.client.from(table).delete().eq('form_id', aliceForm).select();
      expect(deleted.data).toEqual([]);
    }
    const { rows } = await pool.query(
      `select (select body from public.form_autoresponders where form_id = $1) as body,
              (select mode from public.form_retention where form_id = $1) as mode`,
      [aliceForm],
    );
    expect(rows[0]).toEqual({ body: 'Thanks', mode: 'forward_only' });
  });

  it("refuses settings on another owner's form, or a user_id of someone else", async () => {
    const onBobs = await alice.client
      .from('form_retention')
      .insert({ form_id: bobForm, mode: 'days', days: 7 });
    expect(onBobs.error?.code).toBe('42501');
    const asBob = await alice.client
      .from('form_autoresponders')
      .insert({ form_id: bobForm, user_id: bob.id, enabled: true, body: 'Spam' });
    expect(asBob.error?.code).toBe('42501');
    const { rows } = await pool.query(
      `select count(*)::int as n from public.form_autoresponders where form_id = $1`,
      [bobForm],
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it("answers a settings row for a form that is not the caller's as row-level security does, whether that form exists or not", async () => {
    const rows = {
      form_autoresponders: { enabled: true, subject: 'Hi', body: 'Probe' },
      form_retention: { mode: 'days', days: 7 },
    };
    for (const [table, row] of Object.entries(rows)) {
      for (const formId of [bobForm, crypto.randomUUID()]) {
        const { error } = await alice.client.from(table).insert({ form_id: formId, ...row });
        expect(error?.code, `${table} ${formId}`).toBe('42501');
        expect(error?.message, `${table} ${formId}`).toMatch(/row-level security/);
        expect(error?.message, `${table} ${formId}`).not.toMatch(/does not exist/);
      }
    }
  });

  it("answers 404 (PT404), not a 500, to CAPTCHA set on a form that is not the caller's", async () => {
    for (const formId of [bobForm, crypto.randomUUID()]) {
      const res = await alice.client.rpc('set_form_captcha', {
        p_form_id: formId,
        p_provider: 'turnstile',
        p_site_key: 'site-key',
        p_secret: 'secret-key',
      });
      expect({ status: res.status, code: res.error?.code }, formId).toEqual({
        status: 404,
        code: 'PT404',
      });
    }
    const { rows } = await pool.query(
      `select f.captcha_provider,
              (select count(*)::int from private.form_captcha_secrets s where s.form_id = f.id) as secrets
         from public.forms f where f.id = $1`,
      [bobForm],
    );
    expect(rows).toEqual([{ captcha_provider: null, secrets: 0 }]);
  });

  it('checks the bounds of a rule and the subject line', async () => {
    const tooLong = await bob.client
      .from('form_retention')
      .insert({ form_id: bobForm, mode: 'days', days: 3651 });
    expect(tooLong.error?.code).toBe('23514');
    const twoLines = await bob.client
      .from('form_autoresponders')
      .insert({ form_id: bobForm, subject: 'Hi\r\nBcc: x@example.test' });
    expect(twoLines.error?.code).toBe('23514');
  });

  it('keeps the visitor, the bookkeeping and the sweep away from clients', async () => {
    const visitor = newClient();
    expect((await visitor.from('form_autoresponders').select('form_id')).data ?? []).toEqual([]);
    expect((await visitor.from('form_retention').select('form_id')).data ?? []).toEqual([]);
    for (const client of [visitor, alice.client]) {
      // The caps' ledger lives in a schema the Data API does not serve.
      const ledger = await client.schema('private').from('action_ledger').select('kind');
      expect(ledger.error?.code).toBe('PGRST106');
      const swept = await client.rpc('sweep_retention');
      expect(swept.error?.code).toBe('42501');
    }
  });
});
