// The autoresponder through the real parts: a post to the forms function (gateway → Deno →
// Postgres), whose entry's insert queues the reply in the e-mail outbox; the `_deliver` run sends it
// over SMTP to the mail catcher. Each test writes from addresses of its own, so tests sharing the
// catcher never see each other's mail.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createEntry, superuserPool } from '../support/db.ts';
import { AUTORESPONDER_CAPS } from '../../src/features/docs/autoresponder-facts.ts';
import { isTo, listMail, waitForMail } from '../support/mail.ts';
import { needsMail } from '../support/target.ts';
import {
  ORIGIN,
  postFields,
  resetRateLimits,
  runDeliver,
  seedForm,
  type SeededForm,
  until,
} from './support.ts';

const stack = inject('stack');
let pool: pg.Pool;
let form: SeededForm;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // The owner's own confirmed address is the target: verified, so the form may auto-reply.
  form = await seedForm(pool, 'Support <desk>');
  await pool.query(
    `insert into public.form_autoresponders (form_id, enabled, subject, body)
     values ($1, true, 'Re: {{topic}} for {{name}}', $2)`,
    [form.formId, 'Hi {{name}},\nthanks for writing to {{form}}.\nYou said: {{message}}'],
  );
});
afterAll(async () => {
  await pool?.query('delete from auth.users where id = $1', [form?.userId]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

const visitor = () => `visitor-${randomUUID().slice(0, 8)}@example.test`;

const post = (fields: Record<string, string>) => postFields(stack.apiUrl, form.formId, fields);

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

describe('autoresponder', () => {
  it('replies once per address and day, with merge fields escaped and the subject on one line', async (ctx) => {
    needsMail(ctx);
    const address = visitor();
    const res = await post({
      name: '<b>Ada</b> & "co"',
      email: address,
      message: 'Is {{email}} replaced? <script>alert(1)</script>',
      topic: 'Billing\r\nBcc: victim@example.test',
    });
    expect(res.status).toBe(200);
    await deliver();

    const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, address));
    // The header value lost its line break: no second header, no extra recipient.
    expect(mail.subject).toBe('Re: Billing Bcc: victim@example.test for <b>Ada</b> & "co"');
    expect(mail.to.map((t) => t.address)).toEqual([address]);
    expect(JSON.stringify(mail)).not.toMatch(/"bcc"/i);
    // HTML: the visitor's values and the form's name escaped; the visitor's "{{email}}" is text.
    expect(mail.html).toContain('Hi &lt;b&gt;Ada&lt;/b&gt; &amp; &quot;co&quot;,');
    expect(mail.html).toContain('Support &lt;desk&gt;');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Ada');
    expect(mail.text).toContain('You said: Is {{email}} replaced?');
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
  // cap none goes out. Earlier replies are seeded as the trigger records them.
  const hashOf = async (address: string) =>
    (
      await pool.query<{ h: string }>(`select encode(sha256(convert_to($1, 'UTF8')), 'hex') as h`, [
        address,
      ])
    ).rows[0]!.h;

  async function seedSends(f: SeededForm, count: number, hash: string | null, ago = '0 s') {
    // Distinct days keep the (form, address, day) key unique; the caps count by created_at.
    await pool.query(
      `insert into public.autoresponse_sends (form_id, user_id, address_hash, day, created_at)
       select $1, $2, coalesce($3, md5(random()::text)), current_date - i, now() - $5::interval
         from generate_series(1, $4) i`,
      [f.formId, f.userId, hash, count, ago],
    );
  }

  async function replyForm(): Promise<SeededForm> {
    const f = await seedForm(pool, 'Capped');
    await pool.query(
      `insert into public.form_autoresponders (form_id, enabled, body) values ($1, true, 'Hi')`,
      [f.formId],
    );
    return f;
  }

  it('stops at the per-recipient cap across accounts', async () => {
    const other = await replyForm();
    const [below, at] = [visitor(), visitor()];
    await seedSends(other, AUTORESPONDER_CAPS.perRecipientPerDay - 1, await hashOf(below));
    await seedSends(other, AUTORESPONDER_CAPS.perRecipientPerDay, await hashOf(at));
    await createEntry(pool, form.formId, { email: below });
    await createEntry(pool, form.formId, { email: at });
    expect(await autoresponsesTo(below)).toHaveLength(1);
    expect(await autoresponsesTo(at)).toEqual([]);
    await pool.query('delete from auth.users where id = $1', [other.userId]);
  });

  it('stops at the per-account caps per hour and per day', async () => {
    const hourly = await replyForm();
    await seedSends(hourly, AUTORESPONDER_CAPS.perHour - 1, null);
    const [first, second] = [visitor(), visitor()];
    await createEntry(pool, hourly.formId, { email: first });
    await createEntry(pool, hourly.formId, { email: second });
    expect(await autoresponsesTo(first)).toHaveLength(1);
    expect(await autoresponsesTo(second)).toEqual([]);

    // Outside the hour, inside the day.
    const daily = await replyForm();
    await seedSends(daily, AUTORESPONDER_CAPS.perDay, null, '2 hours');
    const third = visitor();
    await createEntry(pool, daily.formId, { email: third });
    expect(await autoresponsesTo(third)).toEqual([]);
    await pool.query('delete from auth.users where id = any($1)', [[hourly.userId, daily.userId]]);
  });
});
