// The autoresponder through the real parts: a post to the forms function (gateway → Deno →
// Postgres), whose entry's insert queues the reply in the e-mail outbox; the `_deliver` run sends it
// over SMTP to the mail catcher. Each test writes from addresses of its own, so tests sharing the
// catcher never see each other's mail.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEntry, createForm, superuserPool } from '../support/db.ts';
import { AUTORESPONDER } from '../../supabase/functions/_shared/limits.ts';
import { isTo, listMail, waitForMail } from '../support/mail.ts';
import { localOnly, needsMail } from '../support/target.ts';
import {
  functionUrl,
  ORIGIN,
  postFields,
  rawRequest,
  resetRateLimits,
  runDeliver,
  seedForm,
  type SeededForm,
  until,
  urlencoded,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let form: SeededForm;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // The owner's own confirmed address is the target: verified, so the form may auto-reply.
  form = await seedForm(pool, 'Support <desk>');
  await pool.query(
    `insert into public.form_autoresponders (form_id, enabled, subject, body)
     values ($1, true, 'Re: your message to {{form}}, {{name}}', $2)`,
    [
      form.formId,
      'Hi {{name}},\nthanks for writing to {{form}} from {{email}}.\nYou said: [{{message}}] [{{topic}}]',
    ],
  );
});
afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [[form?.userId, ...owners]]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

/** Accounts made by single tests, deleted at the end. */
const owners: string[] = [];

const visitor = () => `visitor-${randomUUID().slice(0, 8)}@example.test`;

const post = (fields: Record<string, string>) => postFields(stack.apiUrl, form.formId, fields);

/** A post from the client at `localAddress` (any 127.x.y.z: another visitor network). */
const postFrom = (formId: string, localAddress: string, fields: Record<string, string>) =>
  rawRequest(functionUrl(stack.apiUrl, formId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'application/json',
    },
    body: urlencoded(fields),
    localAddress,
  });

async function deliver(): Promise<void> {
  expect((await runDeliver(stack)).status).toBe(200);
}

async function autoresponsesTo(address: string): Promise<{ status: string }[]> {
  const { rows } = await pool.query<{ status: string }>(
    `select status from public.email_deliveries
      where kind = 'autoresponse' and recipient = lower($1)`,
    [address],
  );
  return rows;
}

/** A new account with a form whose autoresponder is on (body and subject as given). */
async function replyForm(body = 'Hi', subject = 'Thanks for your message'): Promise<SeededForm> {
  const f = await seedForm(pool, 'Capped');
  owners.push(f.userId);
  await pool.query(
    `insert into public.form_autoresponders (form_id, enabled, subject, body)
     values ($1, true, $2, $3)`,
    [f.formId, subject, body],
  );
  return f;
}

/** Another form of the same account, its autoresponder on. */
async function anotherReplyForm(
  owner: SeededForm,
  body = 'Hi',
  subject = 'Thanks for your message',
): Promise<string> {
  const formId = await createForm(pool, owner.userId, {
    name: 'Another',
    target_email: owner.targetEmail,
    allowed_origin: ORIGIN,
  });
  await pool.query(
    `insert into public.form_autoresponders (form_id, enabled, subject, body)
     values ($1, true, $2, $3)`,
    [formId, subject, body],
  );
  return formId;
}

// Earlier replies, seeded as the trigger records them: in the action ledger.
const hashOf = async (address: string) =>
  (
    await pool.query<{ h: string }>(`select encode(sha256(convert_to($1, 'UTF8')), 'hex') as h`, [
      address,
    ])
  ).rows[0]!.h;

async function seedSends(f: SeededForm, count: number, hash: string | null, ago = '0 s') {
  await pool.query(
    `insert into private.action_ledger (kind, user_id, target, form_id, created_at)
     select 'autoresponse', $2, coalesce($3, md5(random()::text)), $1, now() - $5::interval
       from generate_series(1, $4) i`,
    [f.formId, f.userId, hash, count, ago],
  );
}

describe('autoresponder', () => {
  it('replies once per address and day with no visitor text but a clipped name, escaped, on one subject line', async (ctx) => {
    needsMail(ctx);
    const address = visitor();
    const res = await post({
      name: '<b>Ada</b> & "co"\r\nBcc: victim@example.test',
      email: address,
      message: 'Is {{email}} replaced? <script>alert(1)</script>',
      topic: 'Your account is suspended, verify at https://evil.example/login',
    });
    expect(res.status).toBe(200);
    await deliver();

    const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, address));
    // From: "<form name> via tinyback" (the form's name as a label, without angle brackets)
    // before MAIL_FROM's own address, the one the owner's notification comes from.
    const notice = await waitForMail(stack.mailWebUrl, (m) => isTo(m, form.targetEmail));
    expect(mail.from).toEqual([
      { address: notice.from[0]!.address, name: 'Support desk via tinyback' },
    ]);
    // The header value lost its line break and the address in it: no second header, no extra
    // recipient.
    expect(mail.subject).toBe('Re: your message to Support <desk>, <b>Ada</b> & "co" Bcc:');
    expect(mail.to.map((t) => t.address)).toEqual([address]);
    expect(JSON.stringify(mail)).not.toMatch(/"bcc"|victim/i);
    // HTML: the name and the form's name escaped.
    expect(mail.html).toContain('Hi &lt;b&gt;Ada&lt;/b&gt; &amp; &quot;co&quot; Bcc:,');
    expect(mail.html).toContain('Support &lt;desk&gt;');
    expect(mail.html).not.toContain('<b>Ada');
    // Nothing else the visitor typed reaches an address nobody confirmed: fields other than the
    // name are left empty.
    expect(mail.text).toContain(`from ${address}.`);
    expect(mail.text).toContain('You said: [] []');
    for (const typed of ['Is {{email}} replaced', 'script', 'suspended', 'evil.example'])
      expect(`${mail.text}${mail.html}`).not.toContain(typed);
    expect(mail.text).toContain(`entered in the form "Support <desk>" on ${ORIGIN.toLowerCase()}`);

    // The same address again (another case) the same day: stored, but no second reply.
    const again = await post({ name: 'Ada', email: address.toUpperCase(), message: 'Again' });
    expect(again.status).toBe(200);
    await deliver();
    // One reply only; the post's own immediate send may still be recording it as sent.
    const replies = await until(
      'the reply recorded as sent',
      () => autoresponsesTo(address),
      (rows) => rows.length !== 1 || rows[0]!.status === 'sent',
    );
    expect(replies).toEqual([{ status: 'sent' }]);
    expect((await listMail(stack.mailWebUrl)).filter((m) => isTo(m, address))).toHaveLength(1);
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from public.entries where form_id = $1 and lower(email) = lower($2)`,
      [form.formId, address],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('sends as the name the owner chose, encoded for the header, never one a visitor sends', async (ctx) => {
    needsMail(ctx);
    const chosen = await replyForm('Hi {{name}}');
    const name = 'Zoë "Ops" — Café, Inc.';
    await pool.query(`update public.form_autoresponders set from_name = $2 where form_id = $1`, [
      chosen.formId,
      name,
    ]);
    const address = visitor();
    const res = await postFields(stack.apiUrl, chosen.formId, {
      name: 'Ada',
      email: address,
      message: 'Hi',
      from_name: 'Your bank',
      _from: 'Your bank <security@bank.example>',
    });
    expect(res.status).toBe(200);
    await deliver();
    const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, address));
    const notice = await waitForMail(stack.mailWebUrl, (m) => isTo(m, chosen.targetEmail));
    expect(mail.from).toEqual([{ address: notice.from[0]!.address, name }]);
    // On the wire: one From header, the name as RFC 2047 encoded words, the address as it was.
    const source = await (await fetch(`${stack.mailWebUrl}/email/${mail.id}/source`)).text();
    const header = /^From: (.*(?:\r?\n[ \t].*)*)/im.exec(source)![1]!.replace(/\r?\n[ \t]/g, ' ');
    expect(header).toMatch(/^=\?UTF-8\?[BQ]\?.+\?= <[^<>@\s]+@[^<>\s]+>$/i);
    expect(header.endsWith(`<${notice.from[0]!.address}>`)).toBe(true);
    expect(source.match(/^From:/gim)).toHaveLength(1);
    expect(`${mail.text}${mail.html}`).not.toContain('bank');
    const { rows } = await pool.query<{ from_name: string }>(
      `select from_name from public.email_deliveries where kind = 'autoresponse' and recipient = $1`,
      [address],
    );
    expect(rows).toEqual([{ from_name: name }]);
  });

  it('refuses a sender name that could pose as an address or break a header', async () => {
    const f = await replyForm();
    for (const bad of [
      'help@bank.example',
      'Bank <x>',
      'two\nlines',
      'rtl\u202Eevil',
      ' ',
      'x'.repeat(61),
    ]) {
      const result = await pool
        .query(`update public.form_autoresponders set from_name = $2 where form_id = $1`, [
          f.formId,
          bad,
        ])
        .then(
          () => 'stored',
          (err: { code?: string }) => err.code,
        );
      expect(result, JSON.stringify(bad)).toBe('23514');
    }
  });

  it('never replies to spam', async () => {
    const address = visitor();
    const res = await post({ name: 'Bot', email: address, message: 'Buy', _gotcha: 'filled' });
    expect(res.status).toBe(200);
    const { rows } = await pool.query<{ is_spam: boolean }>(
      `select is_spam from public.entries where form_id = $1 and email = $2`,
      [form.formId, address],
    );
    expect(rows).toEqual([{ is_spam: true }]);
    expect(await autoresponsesTo(address)).toEqual([]);
  });

  it('never replies to an address that fails validation, whoever stored the entry', async () => {
    // Through the endpoint: refused before anything is stored.
    const refused = await post({ name: 'Eve', email: 'eve@@example.test', message: 'Hi' });
    expect(refused.status).toBe(422);
    // Written past the endpoint (service role): the database checks the address itself.
    for (const email of ['eve@example', 'eve@example.test, victim@example.test', 'e..ve@x.test'])
      await createEntry(pool, form.formId, { email });
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from public.email_deliveries
        where kind = 'autoresponse' and recipient like 'e%ve@%'`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  // The caps the docs state, each driven by a real entry: one below lets a reply through, at the
  // cap none goes out.
  it('stops at the per-recipient cap across accounts', async () => {
    const other = await replyForm();
    const [below, at] = [visitor(), visitor()];
    await seedSends(other, AUTORESPONDER.perRecipientPerDay - 1, await hashOf(below));
    await seedSends(other, AUTORESPONDER.perRecipientPerDay, await hashOf(at));
    await createEntry(pool, form.formId, { email: below });
    await createEntry(pool, form.formId, { email: at });
    expect(await autoresponsesTo(below)).toHaveLength(1);
    expect(await autoresponsesTo(at)).toEqual([]);
  });

  it('stops at the per-account caps per hour and per day', async () => {
    const hourly = await replyForm();
    await seedSends(hourly, AUTORESPONDER.perHour - 1, null);
    const [first, second] = [visitor(), visitor()];
    await createEntry(pool, hourly.formId, { email: first });
    await createEntry(pool, hourly.formId, { email: second });
    expect(await autoresponsesTo(first)).toHaveLength(1);
    expect(await autoresponsesTo(second)).toEqual([]);

    // Outside the hour, inside the day.
    const daily = await replyForm();
    await seedSends(daily, AUTORESPONDER.perDay, null, '2 hours');
    const third = visitor();
    await createEntry(pool, daily.formId, { email: third });
    expect(await autoresponsesTo(third)).toEqual([]);
  });
});

describe('autoresponder abuse', () => {
  it('keeps its caps when the forms that sent replies are deleted', async (ctx) => {
    localOnly(ctx, 'posts from several 127.x client addresses');
    needsMail(ctx);
    // "Create a form, switch the reply on, post the victim's address, delete the form", again
    // and again from one account: the victim gets at most the per-recipient cap.
    const owner = await replyForm();
    const victim = visitor();
    const tries = AUTORESPONDER.perRecipientPerDay + 3;
    for (let i = 0; i < tries; i++) {
      const formId = await anotherReplyForm(owner);
      const res = await postFrom(formId, `127.0.${10 + i}.1`, { name: 'V', email: victim });
      expect(res.status).toBe(200);
      await deliver();
      await pool.query('delete from public.forms where id = $1', [formId]);
    }
    await deliver();
    const received = (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, victim));
    expect(received).toHaveLength(AUTORESPONDER.perRecipientPerDay);

    // And the account's hourly cap: a fresh form after deleting every earlier one is still capped.
    // The replies to the victim count too.
    await seedSends(owner, AUTORESPONDER.perHour - 1 - AUTORESPONDER.perRecipientPerDay, null);
    await pool.query('delete from public.forms where user_id = $1', [owner.userId]);
    const fresh = await anotherReplyForm(owner);
    const [last, overCap] = [visitor(), visitor()];
    await postFrom(fresh, '127.0.40.1', { name: 'V', email: last });
    await postFrom(fresh, '127.0.41.1', { name: 'V', email: overCap });
    expect(await autoresponsesTo(last)).toHaveLength(1);
    expect(await autoresponsesTo(overCap)).toEqual([]);
  });

  it('bounds a reply whatever the template and the post: no amplification', async () => {
    // A merge field repeated in the template and a 10 000-character value made a 60 MB mail of a
    // 10 KB post: values other than the name are not merged, the name is clipped.
    const bloated = await replyForm('{{name}}{{a}}'.repeat(AUTORESPONDER.maxMergeFields / 2));
    const address = visitor();
    await createEntry(pool, bloated.formId, {
      email: address,
      name: 'N'.repeat(200),
      data: { a: '&'.repeat(10_000) },
    });
    const { rows } = await pool.query<{ text: number; html: number }>(
      `select octet_length(text_body) as text, octet_length(html_body) as html
         from public.email_deliveries where kind = 'autoresponse' and recipient = $1`,
      [address],
    );
    expect(rows).toHaveLength(1);
    // The names of at most AUTORESPONDER.nameChars characters, plus the footer.
    const maxMerged = AUTORESPONDER.maxMergeFields * AUTORESPONDER.nameChars;
    expect(rows[0]!.text).toBeLessThan(maxMerged + 500);
    expect(rows[0]!.html).toBeLessThan(maxMerged + 1_000);

    // A template with more merge fields than are ever filled is refused; one stored before that
    // rule fills only the first ones, in one pass.
    const refused = await pool
      .query(`update public.form_autoresponders set body = $2 where form_id = $1`, [
        bloated.formId,
        '{{name}}'.repeat(AUTORESPONDER.maxMergeFields + 1),
      ])
      .then(
        () => null,
        (err: { code?: string }) => err.code,
      );
    expect(refused).toBe('23514');
    const filled = await pool.query<{ n: number }>(
      `select char_length(private.fill_merge_fields(repeat('{{name}}', 1000), '{"name":"xx"}', $1)) as n`,
      [AUTORESPONDER.maxMergeFields],
    );
    expect(filled.rows[0]!.n).toBe(2 * AUTORESPONDER.maxMergeFields);

    // Whatever writes the outbox, a row cannot grow without bound.
    const huge = await pool
      .query(
        `insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
         values ('autoresponse', $1, 'x@example.test', 's', repeat('x', 600000), 'h')`,
        [bloated.userId],
      )
      .then(
        () => null,
        (err: { code?: string }) => err.code,
      );
    expect(huge).toBe('23514');
  });

  it('sends no visitor text but a short link-free name, and caps each visitor network per account', async (ctx) => {
    localOnly(ctx, 'posts from several 127.x client addresses');
    const owner = await replyForm(
      'Hello {{name}}, about {{message}} {{subject}}',
      'Re: {{name}} {{message}}',
    );
    const forms = [owner.formId];
    for (let i = 0; i < AUTORESPONDER.perClientPerDay; i++)
      forms.push(
        await anotherReplyForm(
          owner,
          'Hello {{name}}, about {{message}} {{subject}}',
          'Re: {{name}} {{message}}',
        ),
      );
    // One visitor network, each post to another form of the account and another address.
    const addresses = forms.map(() => visitor());
    for (const [i, formId] of forms.entries()) {
      const res = await postFrom(formId, '127.0.50.1', {
        name: 'Support team: verify at https://evil.example/login or mail help@evil.example',
        email: addresses[i]!,
        message: 'Your account is suspended',
        subject: 'Urgent',
      });
      expect(res.status).toBe(200);
    }
    const { rows } = await pool.query<{ recipient: string; subject: string; text_body: string }>(
      `select recipient, subject, text_body from public.email_deliveries
        where kind = 'autoresponse' and recipient = any($1) order by created_at`,
      [addresses],
    );
    // The visitor network's allowance: the last post was stored, but not answered.
    expect(rows.map((r) => r.recipient)).toEqual(addresses.slice(0, AUTORESPONDER.perClientPerDay));
    for (const r of rows) {
      expect(r.subject).toBe('Re: Support team: verify at or mail');
      expect(r.text_body).toMatch(/^Hello Support team: verify at or mail, about {2}\n/);
      expect(`${r.subject}${r.text_body}`).not.toMatch(/evil|suspended|Urgent|@evil/);
    }
    // Another network still gets its reply.
    const other = visitor();
    await postFrom(forms.at(-1)!, '127.0.51.1', { name: 'Bo', email: other });
    expect(await autoresponsesTo(other)).toHaveLength(1);
  });

  it('deletes a reply’s copy with its message, and finished copies after 30 days', async () => {
    const owner = await replyForm();
    const [kept, deleted] = [visitor(), visitor()];
    await createEntry(pool, owner.formId, { email: kept });
    const gone = await createEntry(pool, owner.formId, { email: deleted });
    expect(await autoresponsesTo(deleted)).toHaveLength(1);
    // The owner deletes the message (as the dashboard does, under their own role).
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`set local role authenticated`);
      await client.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: owner.userId, role: 'authenticated' }),
      ]);
      await client.query('delete from public.entries where id = $1', [gone.id]);
      await client.query('commit');
    } finally {
      client.release();
    }
    expect(await autoresponsesTo(deleted)).toEqual([]);
    expect(await autoresponsesTo(kept)).toHaveLength(1);

    // A finished copy 31 days old goes with the next sweep, whatever the form's rule.
    await pool.query(
      `update public.email_deliveries set status = 'sent', created_at = now() - interval '31 days'
        where kind = 'autoresponse' and recipient = $1`,
      [kept],
    );
    const swept = await rawRequest(`${stack.apiUrl}/rest/v1/rpc/sweep_retention`, {
      headers: {
        authorization: `Bearer ${stack.serviceRoleKey}`,
        apikey: stack.serviceRoleKey,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(swept.status).toBe(200);
    expect(await autoresponsesTo(kept)).toEqual([]);
  });
});
