// Webhooks under RLS, through supabase-js as two real signed-up users and a visitor: each owner
// reads and writes only the webhooks, deliveries and attempts of their own forms; nobody picks a
// webhook's secret or owner; the worker's functions and the local-targets switch are the service
// role's alone. A form that is not the caller's is refused as row-level security refuses it, before
// anything about it is counted; an account's webhooks are capped across its forms (ACCOUNT_CAPS).
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CAPS } from '../../supabase/functions/_shared/limits.ts';
import { superuserPool } from '../support/db.ts';
import { createForm, newClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

let pool: pg.Pool;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser | undefined;
let aliceForm: string;
let aliceHook: { id: string; secret: string };
let aliceDelivery: string;

beforeAll(async () => {
  pool = superuserPool(testStack().dbUrl);
  [alice, bob] = await Promise.all([signUp('Alice Hooks'), signUp('Bob Hooks')]);
  aliceForm = await createForm(alice.client, 'Alice hooks');
  const { data, error } = await alice.client
    .from('webhooks')
    // Disabled: nothing is ever sent to this address by the stack's scheduled run.
    .insert({ form_id: aliceForm, url: 'https://hooks.example.com/alice', enabled: false })
    .select('id, secret')
    .single();
  if (error) throw error;
  aliceHook = data as { id: string; secret: string };
  // A delivery and its attempt as the worker leaves them (already failed: never picked up again).
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.webhook_deliveries (webhook_id, user_id, event, status, attempts)
     values ($1, $2, 'test', 'failed', 1) returning id`,
    [aliceHook.id, alice.id],
  );
  aliceDelivery = rows[0]!.id;
  await pool.query(
    `insert into public.webhook_attempts (delivery_id, webhook_id, user_id, status_code, ok, error)
     values ($1, $2, $3, 500, false, 'HTTP 500')`,
    [aliceDelivery, aliceHook.id, alice.id],
  );
});

afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [
    [alice?.id, bob?.id, carol?.id].filter(Boolean),
  ]);
  await pool?.end();
});

describe('webhooks RLS', () => {
  it('lets the owner read their webhook, its deliveries and attempts', async () => {
    const hooks = await alice.client.from('webhooks').select('id, secret, user_id');
    expect(hooks.data).toEqual([{ id: aliceHook.id, secret: aliceHook.secret, user_id: alice.id }]);
    const deliveries = await alice.client.from('webhook_deliveries').select('id');
    expect(deliveries.data).toEqual([{ id: aliceDelivery }]);
    const attempts = await alice.client.from('webhook_attempts').select('status_code');
    expect(attempts.data).toEqual([{ status_code: 500 }]);
  });

  it("never shows another owner's webhooks, deliveries or attempts", async () => {
    for (const table of ['webhooks', 'webhook_deliveries', 'webhook_attempts']) {
      const { data, error } = await bob.client.from(table).select('*');
      expect(error, table).toBeNull();
      expect(data, table).toEqual([]);
    }
    const anon = newClient();
    for (const table of ['webhooks', 'webhook_deliveries', 'webhook_attempts']) {
      const { data } = await anon.from(table).select('*');
      expect(data ?? [], table).toEqual([]);
    }
  });

  it("refuses a webhook on another owner's form", async () => {
    const { error } = await bob.client
      .from('webhooks')
      .insert({ form_id: aliceForm, url: 'https://evil.example.com/steal', user_id: bob.id });
    expect(error?.code).toBe('42501');
    const { rows } = await pool.query('select url from public.webhooks where form_id = $1', [
      aliceForm,
    ]);
    expect(rows).toEqual([{ url: 'https://hooks.example.com/alice' }]);
  });

  it("answers a webhook for a form that is not the caller's as row-level security does, before counting anything", async () => {
    // Alice's form is full: the per-form cap would refuse anyone, so only the owner check may answer.
    const full = await createForm(alice.client, 'Alice full');
    for (let i = 0; i < ACCOUNT_CAPS.webhooksPerForm; i++) {
      const { error } = await alice.client
        .from('webhooks')
        .insert({ form_id: full, url: `https://hooks.example.com/full/${i}`, enabled: false });
      expect(error).toBeNull();
    }
    for (const formId of [full, crypto.randomUUID()]) {
      const { error } = await bob.client
        .from('webhooks')
        .insert({ form_id: formId, url: 'https://evil.example.com/probe' });
      expect(error?.code, formId).toBe('42501');
      expect(error?.message, formId).toMatch(/row-level security/);
      expect(error?.hint ?? null, formId).not.toBe('webhook_limit');
      expect(error?.message, formId).not.toMatch(/at most|does not exist/);
    }
    const { rows } = await pool.query(
      'select count(*)::int as n from public.webhooks where form_id = $1',
      [full],
    );
    expect(rows).toEqual([{ n: ACCOUNT_CAPS.webhooksPerForm }]);
  });

  it("cannot change, delete, test or resend another owner's webhook", async () => {
    const update = await bob.client
      .from('webhooks')
      .update({ url: 'https://evil.example.com/' })
      .eq('id', aliceHook.id)
      .select('id');
    expect(update.data ?? []).toEqual([]);
    const del = await bob.client.from('webhooks').delete().eq('id', aliceHook.id).select('id');
    expect(del.data ?? []).toEqual([]);
    expect(
      (await bob.client.rpc('send_webhook_test', { p_webhook_id: aliceHook.id })).error,
    ).not.toBeNull();
    expect(
      (await bob.client.rpc('redeliver_webhook', { p_delivery_id: aliceDelivery })).error,
    ).not.toBeNull();
    const { rows } = await pool.query(
      `select w.url, (select count(*)::int from public.webhook_deliveries d where d.webhook_id = w.id) as n
         from public.webhooks w where w.id = $1`,
      [aliceHook.id],
    );
    expect(rows).toEqual([{ url: 'https://hooks.example.com/alice', n: 1 }]);
  });

  it("answers 404 (PT404), not a 500, for a webhook or delivery that is missing or another owner's", async () => {
    for (const id of [aliceHook.id, crypto.randomUUID()]) {
      const test = await bob.client.rpc('send_webhook_test', { p_webhook_id: id });
      expect({ status: test.status, code: test.error?.code }, `test ${id}`).toEqual({
        status: 404,
        code: 'PT404',
      });
    }
    for (const id of [aliceDelivery, crypto.randomUUID()]) {
      const again = await bob.client.rpc('redeliver_webhook', { p_delivery_id: id });
      expect({ status: again.status, code: again.error?.code }, `send again ${id}`).toEqual({
        status: 404,
        code: 'PT404',
      });
    }
    const missing = await alice.client.rpc('redeliver_webhook', {
      p_delivery_id: crypto.randomUUID(),
    });
    expect({ status: missing.status, code: missing.error?.code }).toEqual({
      status: 404,
      code: 'PT404',
    });
  });

  it(`caps an account at ${ACCOUNT_CAPS.webhooksPerAccount} webhooks across its forms, and a form at ${ACCOUNT_CAPS.webhooksPerForm}`, async () => {
    carol = await signUp('Carol Hooks');
    const owner = carol;
    const add = (formId: string, n: number | string) =>
      owner.client
        .from('webhooks')
        .insert({ form_id: formId, url: `https://hooks.example.com/carol/${n}`, enabled: false });
    const forms: string[] = [];
    let made = 0;
    while (made < ACCOUNT_CAPS.webhooksPerAccount) {
      const formId = await createForm(owner.client, `Carol ${forms.length + 1}`);
      forms.push(formId);
      const room = Math.min(ACCOUNT_CAPS.webhooksPerForm, ACCOUNT_CAPS.webhooksPerAccount - made);
      for (let i = 0; i < room; i++) expect((await add(formId, made++)).error).toBeNull();
    }
    const formFull = await add(forms[0]!, 'one-more-on-the-form');
    expect(formFull.error).toMatchObject({ code: '23514', hint: 'webhook_limit' });
    expect(formFull.error?.message).toMatch(/form/);
    // A new form has room, the account has none.
    const spare = await createForm(owner.client, 'Carol spare');
    const accountFull = await add(spare, 'one-more-on-the-account');
    expect(accountFull.error).toMatchObject({ code: '23514', hint: 'webhook_limit' });
    expect(accountFull.error?.message).toMatch(/account/);
    const { rows } = await pool.query(
      'select count(*)::int as n from public.webhooks where user_id = $1',
      [owner.id],
    );
    expect(rows).toEqual([{ n: ACCOUNT_CAPS.webhooksPerAccount }]);
  });

  it('lets no client choose or change a secret', async () => {
    const chosen = await alice.client
      .from('webhooks')
      .insert({ form_id: aliceForm, url: 'https://hooks.example.com/x', secret: 'whsec_mine' })
      .select('id');
    expect(chosen.error?.code).toBe('42501');
    const changed = await alice.client
      .from('webhooks')
      .update({ secret: 'whsec_mine' })
      .eq('id', aliceHook.id);
    expect(changed.error?.code).toBe('42501');
  });

  it("keeps the worker's functions and the local-targets switch from clients", async () => {
    const claim = await alice.client.rpc('claim_webhook_deliveries', {
      p_id: null,
      p_entry_id: null,
      p_limit: 10,
      p_lease_seconds: 60,
    });
    expect(claim.error).not.toBeNull();
    const settings = await alice.client.from('webhook_settings').update({ allow_local: true });
    expect(settings.error).not.toBeNull();
  });
});
