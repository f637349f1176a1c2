// Owners' newsletters, their first step, as two real users and anon: each owner creates, reads,
// changes and deletes only her own lists and campaigns and reads only her own subscribers, which
// reach only her through Realtime; nobody writes subscribers but the import and the signup; the
// import adds confirmed subscribers only under a consent statement, reporting invalid rows and
// duplicates and adding nothing twice; a campaign's recipients are fixed once, when it starts, one
// row per subscriber (the primary key allows no second); pause, resume and cancel follow their
// rules; deleting the account deletes lists, subscribers and campaigns.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { anon, commitAsService, runAs, superuserPool, user } from '../support/db.ts';
import { listenToTable } from '../support/realtime.ts';
import { newClient, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;
let aliceList: string;

type Row = Record<string, unknown>;
const CONSENT = 'They signed up at our shop counter in 2025.';

async function createList(client: SupabaseClient, name = 'Shop news'): Promise<string> {
  const { data, error } = await client
    .from('newsletter_lists')
    .insert({ name, allowed_origin: 'https://shop.example.test/' })
    .select('id')
    .single();
  if (error) throw error;
  return data.id as string;
}

async function importRows(client: SupabaseClient, listId: string, rows: Row[], consent = CONSENT) {
  return client.rpc('import_list_subscribers', {
    p_list_id: listId,
    p_rows: rows,
    p_consent_statement: consent,
  });
}

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  service = serviceClient();
  [alice, bob] = await Promise.all([signUp('Alice Letters'), signUp('Bob Letters')]);
  aliceList = await createList(alice.client);
});

afterAll(async () => {
  await service.from('newsletter_lists').delete().in('user_id', [alice?.id, bob?.id]);
  await pool.end();
});

describe('lists', () => {
  it("are the owner's own: created for her, seen, changed and deleted by her only", async () => {
    const { data } = await alice.client
      .from('newsletter_lists')
      .select('user_id, allowed_origin')
      .eq('id', aliceList)
      .single();
    expect(data).toEqual({ user_id: alice.id, allowed_origin: 'https://shop.example.test' });
    expect((await bob.client.from('newsletter_lists').select('id')).data).toEqual([]);
    const changed = await bob.client
      .from('newsletter_lists')
      .update({ name: 'Mine' })
      .eq('id', aliceList)
      .select();
    expect(changed.data).toEqual([]);
    const removed = await bob.client.from('newsletter_lists').delete().eq('id', aliceList).select();
    expect(removed.data).toEqual([]);
    const forged = await bob.client
      .from('newsletter_lists')
      .insert({ name: 'Forged', allowed_origin: 'https://x.example', user_id: alice.id });
    expect(forged.error?.code).toBe('42501');
    const visitor = newClient();
    expect((await visitor.from('newsletter_lists').select('id')).data ?? []).toEqual([]);
    expect(
      (
        await visitor
          .from('newsletter_lists')
          .insert({ name: 'A', allowed_origin: 'https://a.example' })
      ).error,
    ).not.toBeNull();
  });

  it('refuse a sender name with an address or controls, a bad reply-to and origin', async () => {
    for (const fields of [
      { from_name: 'Shop <evil@example.test>' },
      { from_name: 'Shop\u202e' },
      { reply_to: 'not an address' },
      { allowed_origin: 'javascript:alert(1)' },
      { confirm_message: 'x'.repeat(1001) },
    ]) {
      const { error } = await alice.client
        .from('newsletter_lists')
        .insert({ name: 'Bad', allowed_origin: 'https://a.example', ...fields });
      expect(error?.code, JSON.stringify(fields)).toBe('23514');
    }
  });
});

describe('the import', () => {
  it('adds confirmed subscribers under the consent statement, reporting invalid rows and duplicates', async () => {
    const list = await createList(alice.client, 'Import');
    const first = await importRows(alice.client, list, [
      { email: 'Ada@Example.test', name: 'Ada' },
      { email: 'not-an-address', name: 'Nobody' },
      { email: 'ada@example.test', name: 'Ada again' },
      { email: 'grace@example.test' },
      { email: 'x@example..test' },
    ]);
    expect(first.error).toBeNull();
    expect(first.data).toEqual({
      added: 2,
      duplicates: [{ row: 3, email: 'ada@example.test' }],
      invalid: [
        { row: 2, email: 'not-an-address', reason: 'Not an e-mail address' },
        { row: 5, email: 'x@example..test', reason: 'Not an e-mail address' },
      ],
    });
    // The same file again adds nothing.
    const again = await importRows(alice.client, list, [{ email: 'grace@example.test' }]);
    expect(again.data).toMatchObject({
      added: 0,
      duplicates: [{ row: 1, email: 'grace@example.test' }],
    });
    const { data: rows } = await alice.client
      .from('list_subscribers')
      .select('email, name, status, source, consent_statement')
      .eq('list_id', list)
      .order('email');
    expect(rows).toEqual([
      {
        email: 'ada@example.test',
        name: 'Ada',
        status: 'confirmed',
        source: 'import',
        consent_statement: CONSENT,
      },
      {
        email: 'grace@example.test',
        name: null,
        status: 'confirmed',
        source: 'import',
        consent_statement: CONSENT,
      },
    ]);
  });

  it("needs a consent statement, the caller's own list, and at most 10 000 rows", async () => {
    const short = await importRows(alice.client, aliceList, [{ email: 'a@example.test' }], 'yes');
    expect(short.error?.code).toBe('22023');
    const foreign = await importRows(bob.client, aliceList, [{ email: 'a@example.test' }]);
    expect(foreign.error?.code).toBe('PT404');
    const many = Array.from({ length: 10_001 }, (_, i) => ({ email: `p${i}@example.test` }));
    expect((await importRows(alice.client, aliceList, many)).error?.code).toBe('22023');
    const visitor = newClient();
    expect(
      (await importRows(visitor, aliceList, [{ email: 'a@example.test' }])).error,
    ).not.toBeNull();
  });

  it('keeps subscribers to their owner: read, deleted, never written directly', async () => {
    await importRows(alice.client, aliceList, [{ email: 'kept@example.test' }]);
    expect((await bob.client.from('list_subscribers').select('id')).data).toEqual([]);
    const insert = await alice.client.from('list_subscribers').insert({
      list_id: aliceList,
      user_id: alice.id,
      email: 'direct@example.test',
      status: 'confirmed',
      source: 'form',
      consent_at: new Date().toISOString(),
    });
    expect(insert.error?.code).toBe('42501');
    const promote = await alice.client
      .from('list_subscribers')
      .update({ status: 'confirmed' })
      .eq('email', 'kept@example.test');
    expect(promote.error?.code).toBe('42501');
    const byBob = await bob.client
      .from('list_subscribers')
      .delete()
      .eq('email', 'kept@example.test')
      .select();
    expect(byBob.data).toEqual([]);
    for (const actor of [anon, user(bob.id)]) {
      const outcome = await runAs(pool, actor, 'select * from private.campaign_messages');
      expect(outcome.code).toBe('42501');
    }
  });
});

describe('campaigns', () => {
  it('fix their recipients once, when they start: one row per confirmed subscriber', async () => {
    const list = await createList(alice.client, 'Campaign list');
    await importRows(alice.client, list, [
      { email: 'one@example.test' },
      { email: 'two@example.test' },
      { email: 'three@example.test' },
    ]);
    // A pending subscriber (a signup not yet confirmed) is no recipient.
    await pool.query(
      `insert into public.list_subscribers (list_id, user_id, email, status, source)
       values ($1, $2, 'pending@example.test', 'pending', 'form')`,
      [list, alice.id],
    );
    const { data: campaign } = await alice.client
      .from('campaigns')
      .insert({ list_id: list, subject: 'Spring news', body_markdown: '# Hello\n\nNew things.' })
      .select('id, status')
      .single();
    expect(campaign).toMatchObject({ status: 'draft' });
    const started = await alice.client.rpc('campaign_start', { p_campaign_id: campaign!.id });
    expect(started.data).toEqual({ status: 'sending', recipients: 3 });
    // Starting again is refused, and the recipients stay one row each.
    const again = await alice.client.rpc('campaign_start', { p_campaign_id: campaign!.id });
    expect(again.error?.code).toBe('55000');
    const { rows } = await pool.query<{ n: number; distinct_n: number }>(
      `select count(*)::int as n, count(distinct subscriber_id)::int as distinct_n
         from private.campaign_messages where campaign_id = $1`,
      [campaign!.id],
    );
    expect(rows[0]).toEqual({ n: 3, distinct_n: 3 });
    // The database refuses a second message row for a recipient.
    await expect(
      pool.query(
        `insert into private.campaign_messages (campaign_id, subscriber_id)
         select campaign_id, subscriber_id from private.campaign_messages where campaign_id = $1 limit 1`,
        [campaign!.id],
      ),
    ).rejects.toMatchObject({ code: '23505' });
    // Only a draft is edited.
    const edit = await alice.client
      .from('campaigns')
      .update({ subject: 'Changed' })
      .eq('id', campaign!.id);
    expect(edit.error?.code).toBe('55000');
  });

  it('pause, resume and cancel by the rules; a cancelled campaign sends nothing more', async () => {
    const { data: campaign } = await alice.client
      .from('campaigns')
      .insert({ list_id: aliceList, subject: 'Hi', body_markdown: 'Text' })
      .select('id')
      .single();
    const id = campaign!.id as string;
    const control = (client: SupabaseClient, action: string) =>
      client.rpc('campaign_control', { p_campaign_id: id, p_action: action });
    expect((await control(alice.client, 'pause')).error?.code).toBe('55000');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      (await alice.client.rpc('campaign_start', { p_campaign_id: id, p_at: at })).data,
    ).toMatchObject({
      status: 'scheduled',
    });
    expect((await control(alice.client, 'unschedule')).data).toEqual({ status: 'draft' });
    await alice.client.rpc('campaign_start', { p_campaign_id: id });
    expect((await control(bob.client, 'pause')).error?.code).toBe('PT404');
    expect((await control(alice.client, 'pause')).data).toEqual({ status: 'paused' });
    expect((await control(alice.client, 'resume')).data).toEqual({ status: 'sending' });
    expect((await control(alice.client, 'cancel')).data).toEqual({ status: 'cancelled' });
    const { rows } = await pool.query<{ status: string }>(
      'select distinct status from private.campaign_messages where campaign_id = $1',
      [id],
    );
    expect(rows.map((r) => r.status)).toEqual(rows.length ? ['skipped'] : []);
    expect((await control(alice.client, 'resume')).error?.code).toBe('55000');
  });

  it("go to the owner's own lists only, and only drafts are deleted", async () => {
    const bobList = await createList(bob.client, 'Bob list');
    const foreign = await alice.client
      .from('campaigns')
      .insert({ list_id: bobList, subject: 'x', body_markdown: 'y' });
    expect(foreign.error?.code).toBe('23503');
    expect((await bob.client.from('campaigns').select('id')).data).toEqual([]);
    const insert = (subject: string) =>
      alice.client
        .from('campaigns')
        .insert({ list_id: aliceList, subject, body_markdown: 'Body' })
        .select('id')
        .single();
    const draft = (await insert('Draft')).data!.id as string;
    const sending = (await insert('Sending')).data!.id as string;
    await alice.client.rpc('campaign_start', { p_campaign_id: sending });
    const removed = await alice.client
      .from('campaigns')
      .delete()
      .in('id', [draft, sending])
      .select('id');
    expect(removed.data).toEqual([{ id: draft }]);
  });
});

describe('the signup (double opt-in)', () => {
  const token = () => randomBytes(32).toString('base64url');
  /** The function's two steps: the list, the page and the client first, then the address. */
  const subscribe = async (
    listId: string,
    email: string,
    confirm: string,
    origin = 'https://shop.example.test',
  ): Promise<Row> => {
    const gate = (
      await commitAsService<{ a: Row }>(
        pool,
        `select public.list_signup_attempt($1, $2, 'client-1',
                                           '{"per_client_minute": 100, "per_client_day": 100}') as a`,
        [listId, origin],
      )
    )[0]!.a;
    if (gate.status !== 'ok') return gate;
    return (
      await commitAsService<{ a: Row }>(
        pool,
        `select public.list_subscribe($1, $2, 'Ada', $3, 'https://site.test/newsletter/confirm?list=1&token=', '{}') as a`,
        [listId, email, confirm],
      )
    )[0]!.a;
  };
  const status = async (listId: string, email: string) =>
    (
      await pool.query<{ status: string }>(
        'select status from public.list_subscribers where list_id = $1 and email = $2',
        [listId, email],
      )
    ).rows[0]?.status;
  const confirmations = async (email: string) =>
    (
      await pool.query<{ n: number }>(
        `select count(*)::int as n from public.email_deliveries where kind = 'list_confirmation' and recipient = $1`,
        [email],
      )
    ).rows[0]!.n;

  it('keeps a signup pending until its link is spent, mails it once per cooldown, answers alike', async () => {
    const list = await createList(alice.client, 'Signups');
    const email = `sign-${Date.now()}@example.test`;
    const first = token();
    expect(await subscribe(list, email, first)).toEqual({ status: 'ok' });
    expect(await status(list, email)).toBe('pending');
    expect(await subscribe(list, email, token())).toEqual({ status: 'ok' });
    expect(await confirmations(email)).toBe(1);
    expect(await subscribe(list, email, token(), 'https://evil.example')).toEqual({
      status: 'foreign_origin',
    });
    const [confirmed] = await commitAsService<{ a: Row }>(
      pool,
      'select public.list_confirm($1) as a',
      [first],
    );
    expect(confirmed!.a).toEqual({ status: 'confirmed', list_name: 'Signups' });
    expect(await status(list, email)).toBe('confirmed');
    const [again] = await commitAsService<{ a: Row }>(pool, 'select public.list_confirm($1) as a', [
      first,
    ]);
    expect(again!.a).toEqual({ status: 'invalid' });
    // A confirmed address signing up again gets the same answer and no mail.
    expect(await subscribe(list, email, token())).toEqual({ status: 'ok' });
    expect(await confirmations(email)).toBe(1);
    const { rows } = await pool.query<{ text_body: string }>(
      `select text_body from public.email_deliveries where kind = 'list_confirmation' and recipient = $1`,
      [email],
    );
    expect(rows[0]!.text_body).toContain(
      `https://site.test/newsletter/confirm?list=1&token=${first}`,
    );
    expect(rows[0]!.text_body).not.toContain('Ada');
  });

  it('mails one address at most 3 confirmations a day, from all lists together', async () => {
    const email = `capped-${Date.now()}@example.test`;
    for (let i = 0; i < 5; i++) {
      const list = await createList(alice.client, `Cap ${i}`);
      expect(await subscribe(list, email, token())).toEqual({ status: 'ok' });
    }
    expect(await confirmations(email)).toBe(3);
  });

  it("mails at most the account's daily confirmations from all its lists together", async () => {
    const carol = await signUp('Carol Caps');
    const other = await signUp('Dan Caps');
    const lists = [
      await createList(carol.client, 'First'),
      await createList(carol.client, 'Second'),
    ];
    const otherList = await createList(other.client, 'Other');
    const signup = (listId: string, email: string) =>
      commitAsService<{ a: Row }>(
        pool,
        `select public.list_subscribe($1, $2, null, $3,
                                      'https://site.test/newsletter/confirm?list=1&token=',
                                      '{"per_account_day": 2}') as a`,
        [listId, email, token()],
      );
    const stamp = Date.now().toString(36);
    for (let i = 0; i < 4; i++) await signup(lists[i % 2]!, `acct-${stamp}-${i}@example.test`);
    await signup(otherList, `acct-${stamp}-other@example.test`);
    const { rows } = await pool.query<{ user_id: string; n: number }>(
      `select user_id, count(*)::int as n from public.email_deliveries
        where kind = 'list_confirmation' and recipient like $1 group by user_id`,
      [`acct-${stamp}-%`],
    );
    expect(Object.fromEntries(rows.map((r) => [r.user_id, r.n]))).toEqual({
      [carol.id]: 2,
      [other.id]: 1,
    });
    // Every signup is still stored, and answered alike.
    const { rows: stored } = await pool.query<{ n: number }>(
      `select count(*)::int as n from public.list_subscribers where user_id = $1`,
      [carol.id],
    );
    expect(stored[0]!.n).toBe(4);
    await service.from('newsletter_lists').delete().in('user_id', [carol.id, other.id]);
  });

  it("counts the client before anything else, and hands the list's CAPTCHA secret to the service only", async () => {
    const list = await createList(alice.client, 'Guarded');
    const attempt = async (client: string) =>
      (
        await commitAsService<{ a: Row }>(
          pool,
          `select public.list_signup_attempt($1, 'https://shop.example.test', $2,
                                             '{"per_client_minute": 2, "per_client_day": 100}') as a`,
          [list, client],
        )
      )[0]!.a;
    // Off until the owner turns it on.
    expect(await attempt('client-g1')).toEqual({
      status: 'ok',
      list_id: list,
      captcha_provider: null,
      captcha_secret: null,
    });
    // Only the owner sets it; the secret is kept where no user reads it.
    const set = (client: SupabaseClient, secret = 'sekret-1') =>
      client.rpc('set_list_captcha', {
        p_list_id: list,
        p_provider: 'turnstile',
        p_site_key: '0x4AAAAAAA',
        p_secret: secret,
      });
    expect((await set(bob.client)).error?.message).toBe('This list no longer exists.');
    expect((await set(newClient())).error).not.toBeNull();
    expect((await set(alice.client)).error).toBeNull();
    const { data: seen } = await alice.client
      .from('newsletter_lists')
      .select('captcha_provider, captcha_site_key')
      .eq('id', list)
      .single();
    expect(seen).toEqual({ captcha_provider: 'turnstile', captcha_site_key: '0x4AAAAAAA' });
    for (const actor of [anon, user(alice.id)])
      expect((await runAs(pool, actor, 'select * from private.list_captcha_secrets')).code).toBe(
        '42501',
      );
    // Nor can the owner set the columns around the RPC (which keeps them and the secret together).
    const { error: direct } = await alice.client
      .from('newsletter_lists')
      .update({ captcha_provider: null })
      .eq('id', list);
    expect(direct).not.toBeNull();
    // An empty secret keeps the stored one for the same provider.
    expect((await set(alice.client, '')).error).toBeNull();
    expect(await attempt('client-g1')).toEqual({
      status: 'ok',
      list_id: list,
      captcha_provider: 'turnstile',
      captcha_secret: 'sekret-1',
    });
    // The third attempt in a minute is refused, whatever the CAPTCHA would have said.
    expect(await attempt('client-g1')).toEqual({ status: 'rate_limited', retry_after: 60 });
    expect((await attempt('client-g2')).status).toBe('ok');
    expect(
      await runAs(pool, user(alice.id), `select public.list_signup_attempt($1, 'x', 'y', '{}')`, [
        list,
      ]),
    ).toMatchObject({ code: '42501' });
    // Turned off: the secret is gone.
    await alice.client.rpc('set_list_captcha', {
      p_list_id: list,
      p_provider: null,
      p_site_key: null,
      p_secret: null,
    });
    const { rows } = await pool.query(
      'select 1 from private.list_captcha_secrets where list_id = $1',
      [list],
    );
    expect(rows).toHaveLength(0);
  });

  it('unsubscribes through list_unsubscribe(), counted on the campaign', async () => {
    const list = await createList(alice.client, 'Leaving');
    await importRows(alice.client, list, [{ email: 'leaver@example.test' }]);
    const { data: campaign } = await alice.client
      .from('campaigns')
      .insert({ list_id: list, subject: 'S', body_markdown: 'B' })
      .select('id')
      .single();
    const { rows } = await pool.query<{ id: string }>(
      `select id from public.list_subscribers where list_id = $1`,
      [list],
    );
    const unsubscribe = () =>
      commitAsService<{ a: Row }>(pool, 'select public.list_unsubscribe($1, $2) as a', [
        rows[0]!.id,
        campaign!.id,
      ]);
    expect((await unsubscribe())[0]!.a).toEqual({ status: 'unsubscribed', list_name: 'Leaving' });
    expect((await unsubscribe())[0]!.a).toEqual({ status: 'unsubscribed', list_name: 'Leaving' });
    const { data } = await alice.client
      .from('campaigns')
      .select('unsubscribed')
      .eq('id', campaign!.id)
      .single();
    expect(data).toEqual({ unsubscribed: 1 });
    expect(await status(list, 'leaver@example.test')).toBe('unsubscribed');
    for (const actor of [anon, user(alice.id)]) {
      const outcome = await runAs(pool, actor, 'select public.list_unsubscribe($1, null)', [
        rows[0]!.id,
      ]);
      expect(outcome.code).toBe('42501');
    }
  });
});

describe('a test of a campaign', () => {
  it("goes to the owner's own sign-in address only, a few times an hour, through the service only", async () => {
    const { data: campaign } = await alice.client
      .from('campaigns')
      .insert({ list_id: aliceList, subject: 'Spring', body_markdown: '# Hi' })
      .select('id')
      .single();
    const send = async (userId: string) =>
      (
        await commitAsService<{ a: Row }>(
          pool,
          `select public.campaign_send_test($1, $2, '[Test] Spring', 'Hi', '<p>Hi</p>',
                                            '{"per_account_hour": 2, "per_account_day": 5}') as a`,
          [userId, campaign!.id],
        )
      )[0]!.a;
    // Someone else's campaign is none of theirs.
    expect(await send(bob.id)).toEqual({ status: 'not_found' });
    expect(await send(alice.id)).toEqual({ status: 'ok', recipient: alice.email.toLowerCase() });
    expect(await send(alice.id)).toMatchObject({ status: 'ok' });
    expect(await send(alice.id)).toEqual({ status: 'rate_limited', retry_after: 3600 });
    const { rows } = await pool.query<{ recipient: string; subject: string }>(
      `select recipient, subject from public.email_deliveries where kind = 'campaign_test' and user_id = $1`,
      [alice.id],
    );
    expect(rows).toEqual([
      { recipient: alice.email.toLowerCase(), subject: '[Test] Spring' },
      { recipient: alice.email.toLowerCase(), subject: '[Test] Spring' },
    ]);
    // Deleting the campaign gives nothing back: the count lives in the action ledger.
    await alice.client.from('campaigns').delete().eq('id', campaign!.id);
    const { data: again } = await alice.client
      .from('campaigns')
      .insert({ list_id: aliceList, subject: 'Again', body_markdown: 'x' })
      .select('id')
      .single();
    const retry = await commitAsService<{ a: Row }>(
      pool,
      `select public.campaign_send_test($1, $2, 's', 't', 'h', '{"per_account_hour": 2}') as a`,
      [alice.id, again!.id],
    );
    expect(retry[0]!.a).toEqual({ status: 'rate_limited', retry_after: 3600 });
    for (const actor of [anon, user(alice.id)])
      expect(
        await runAs(pool, actor, `select public.campaign_send_test($1, $2, 's', 't', 'h', '{}')`, [
          alice.id,
          campaign!.id,
        ]),
      ).toMatchObject({ code: '42501' });
  });
});

describe('Realtime', () => {
  it("brings a list's new subscribers to their owner only", async () => {
    type Change = RealtimePostgresChangesPayload<Row>;
    const forAlice: Change[] = [];
    const forBob: Change[] = [];
    const channels = await Promise.all([
      listenToTable(
        alice.client,
        'subs-alice',
        'list_subscribers',
        `user_id=eq.${alice.id}`,
        forAlice,
      ),
      listenToTable(bob.client, 'subs-bob', 'list_subscribers', `user_id=eq.${alice.id}`, forBob),
    ]);
    try {
      await importRows(alice.client, aliceList, [{ email: 'live@example.test' }]);
      const arrived = (c: Change) => (c.new as Row).email === 'live@example.test';
      const deadline = Date.now() + 5000;
      while (!forAlice.some(arrived) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(forAlice.find(arrived)?.new).toMatchObject({ user_id: alice.id, status: 'confirmed' });
      await new Promise((r) => setTimeout(r, 500));
      expect(forBob).toEqual([]);
    } finally {
      await Promise.all([
        alice.client.removeChannel(channels[0]),
        bob.client.removeChannel(channels[1]),
      ]);
    }
  });
});

describe('account deletion', () => {
  it('deletes the lists, subscribers, campaigns and recipients', async () => {
    const carol = await signUp('Carol Letters');
    const list = await createList(carol.client);
    await importRows(carol.client, list, [{ email: 'c1@example.test' }]);
    const { data: campaign } = await carol.client
      .from('campaigns')
      .insert({ list_id: list, subject: 'S', body_markdown: 'B' })
      .select('id')
      .single();
    await carol.client.rpc('campaign_start', { p_campaign_id: campaign!.id });
    await pool.query('delete from auth.users where id = $1', [carol.id]);
    const { rows } = await pool.query(
      `select (select count(*)::int from public.newsletter_lists where user_id = $1) as lists,
              (select count(*)::int from public.list_subscribers where user_id = $1) as subscribers,
              (select count(*)::int from public.campaigns where user_id = $1) as campaigns,
              (select count(*)::int from private.campaign_messages where campaign_id = $2) as messages`,
      [carol.id, campaign!.id],
    );
    expect(rows[0]).toEqual({ lists: 0, subscribers: 0, campaigns: 0, messages: 0 });
  });
});
