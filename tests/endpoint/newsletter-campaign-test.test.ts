// "Send a test to yourself" through real HTTP on the local stack (supabase-js functions.invoke →
// gateway → Deno `newsletter` function → Auth and Postgres; the outbox → SMTP → mail catcher): the
// signed-in owner gets the campaign rendered as the sender renders it, at their own sign-in
// address only; another owner, a signed-out caller and a forged token get nothing; the account's
// hourly cap holds even after the campaign is deleted. And a campaign's own sender name and
// reply-to, else its list's, are what its subscribers' mail (and its test) carry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { CAMPAIGNS } from '../../supabase/functions/_shared/limits.ts';
import { isTo, listMail, waitForMail } from '../support/mail.ts';
import { needsMail } from '../support/target.ts';
import { runDeliver } from './support.ts';
import { newClient, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

const stack = () => testStack();
let alice: TestUser;
let bob: TestUser;
let listId: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([signUp('Alice Tests'), signUp('Bob Tests')]);
  const { data, error } = await alice.client
    .from('newsletter_lists')
    .insert({
      name: 'Garden notes',
      allowed_origin: 'https://garden.example.test',
      from_name: 'Alice',
    })
    .select('id')
    .single();
  if (error) throw error;
  listId = data.id as string;
}, 60_000);
afterAll(async () => {
  await serviceClient().auth.admin.deleteUser(alice.id);
  await serviceClient().auth.admin.deleteUser(bob.id);
});

async function draft(subject: string, body: string): Promise<string> {
  const { data, error } = await alice.client
    .from('campaigns')
    .insert({ list_id: listId, subject, body_markdown: body })
    .select('id')
    .single();
  if (error) throw error;
  return data.id as string;
}

/** Tests the account has sent (every 202 counts against its hour). */
let accepted = 0;

/** The function's answer: its status and JSON body, whatever supabase-js makes of it. */
async function sendTest(client: TestUser['client'], campaignId: string) {
  const { data, error } = await client.functions.invoke(`newsletter/campaigns/${campaignId}/test`, {
    body: {},
  });
  if (!error) {
    accepted++;
    return { status: 202, body: data as Record<string, unknown> };
  }
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  throw error;
}

describe('a test of a campaign', () => {
  it('reaches the owner alone, rendered as the subscribers will get it', async (ctx) => {
    needsMail(ctx);
    const id = await draft(
      'Tomatoes & <peppers>',
      '# Sowing\n\nStart **indoors**. <img src=x onerror=alert(1)>',
    );
    const sent = await sendTest(alice.client, id);
    expect(sent).toEqual({ status: 202, body: { ok: true, recipient: alice.email.toLowerCase() } });
    const mail = await waitForMail(
      stack().mailWebUrl,
      (m) => isTo(m, alice.email) && m.subject === '[Test] Tomatoes & <peppers>',
      15_000,
    );
    expect(mail.from[0]?.name).toBe('Alice');
    expect(mail.html).toContain('<h1>Sowing</h1>');
    expect(mail.html).toContain('<strong>indoors</strong>');
    expect(mail.html).not.toMatch(/<img/i);
    expect(mail.text).toMatch(/^This is a test of your campaign, sent only to you\./);

    // Another owner's token names another account: the campaign is not theirs.
    expect(await sendTest(bob.client, id)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    // Signed out (the anon key is no user), and a forged token.
    expect(await sendTest(newClient(), id)).toMatchObject({ status: 401 });
    const res = await fetch(`${stack().apiUrl}/functions/v1/newsletter/campaigns/${id}/test`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
        apikey: stack().anonKey,
      },
    });
    expect(res.status).toBe(401);
    const toBob = (await listMail(stack().mailWebUrl)).filter((m) => isTo(m, bob.email));
    expect(toBob).toEqual([]);
  });

  it(`stops at ${CAMPAIGNS.testsPerHour} an hour per account, whatever is deleted`, async () => {
    const first = await draft('One', 'x');
    // Tests sent above counted too.
    while (accepted < CAMPAIGNS.testsPerHour)
      expect((await sendTest(alice.client, first)).status).toBe(202);
    await alice.client.from('campaigns').delete().eq('id', first);
    const second = await draft('Two', 'y');
    const over = await sendTest(alice.client, second);
    expect(over).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
  });
});

describe("a campaign's sender", () => {
  it("is its own name and reply-to when it has them, else its list's", async (ctx) => {
    needsMail(ctx);
    const reader = `reader-${Date.now().toString(36)}@example.test`;
    const { error } = await alice.client.rpc('import_list_subscribers', {
      p_list_id: listId,
      p_rows: [{ email: reader }],
      p_consent_statement: 'They asked for the garden notes at the spring fair.',
    });
    if (error) throw error;
    const own = await alice.client
      .from('campaigns')
      .insert({
        list_id: listId,
        subject: 'Own sender',
        body_markdown: 'Hello',
        from_name: 'Alice at the garden',
        reply_to: 'Garden@Example.test',
      })
      .select('id, from_name, reply_to')
      .single();
    // Stored as the list's are: trimmed, the address in lower case.
    expect(own.data).toMatchObject({
      from_name: 'Alice at the garden',
      reply_to: 'garden@example.test',
    });
    const plain = await draft('List sender', 'Hello');
    for (const id of [own.data!.id as string, plain]) {
      const started = await alice.client.rpc('campaign_start', { p_campaign_id: id });
      expect(started.error).toBeNull();
    }
    await runDeliver(stack());
    const mailOf = (subject: string) =>
      waitForMail(stack().mailWebUrl, (m) => isTo(m, reader) && m.subject === subject, 60_000);
    const [ownMail, listMail_] = await Promise.all([mailOf('Own sender'), mailOf('List sender')]);
    expect(ownMail.from[0]?.name).toBe('Alice at the garden');
    expect(listMail_.from[0]?.name).toBe('Alice');
    const replyTo = async (id: string) =>
      (await fetch(`${stack().mailWebUrl}/email/${id}`).then((r) => r.json())) as {
        replyTo?: { address: string }[];
      };
    expect((await replyTo(ownMail.id)).replyTo?.[0]?.address).toBe('garden@example.test');
    expect((await replyTo(listMail_.id)).replyTo ?? []).toEqual([]);
    // A sent campaign's sender is not changed afterwards.
    const late = await alice.client
      .from('campaigns')
      .update({ from_name: 'Someone else' })
      .eq('id', own.data!.id as string);
    expect(late.error?.code).toBe('55000');
  });
});
