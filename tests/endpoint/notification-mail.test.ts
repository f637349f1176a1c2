// The notification e-mail through the real parts (gateway → Deno → Postgres → SMTP → mail
// catcher): it links to the message in the dashboard and states when it arrived in the owner's
// own time zone (profiles.time_zone), else in UTC — always naming the zone.
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anon, superuserPool, user, withActor } from '../support/db.ts';
import { isTo, waitForMail } from '../support/mail.ts';
import { needsMail } from '../support/target.ts';
import { postFields, resetRateLimits, runDeliver, seedForm, type SeededForm } from './support.ts';
import { testStack, testTarget } from '../support/stack.ts';

const stack = testStack();
const target = testTarget();
let pool: pg.Pool;
const forms: SeededForm[] = [];

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [forms.map((f) => f.userId)]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

async function ownerIn(timeZone: string | null): Promise<SeededForm> {
  const form = await seedForm(pool, 'Zoned');
  forms.push(form);
  await pool.query('update public.profiles set time_zone = $2 where id = $1', [
    form.userId,
    timeZone,
  ]);
  return form;
}

async function notificationOf(form: SeededForm) {
  const res = await postFields(stack.apiUrl, form.formId, { name: 'Ada', message: 'Hello' });
  expect(res.status).toBe(200);
  const entryId = (JSON.parse(res.body) as { id: string }).id;
  expect((await runDeliver(stack)).status).toBe(200);
  const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, form.targetEmail));
  const { rows } = await pool.query<{ created_at: Date }>(
    'select created_at from public.entries where id = $1',
    [entryId],
  );
  return { mail, entryId, createdAt: rows[0]!.created_at };
}

describe('the notification e-mail', () => {
  it('links to the message and gives the time in the owner’s zone', async (ctx) => {
    needsMail(ctx);
    const form = await ownerIn('Asia/Tokyo');
    const { mail, entryId, createdAt } = await notificationOf(form);
    const expected = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(createdAt);
    expect(mail.text).toMatch(
      new RegExp(`^Received .*, ${expected}:\\d\\d \\(Asia/Tokyo, UTC\\+09:00\\)\\.$`, 'm'),
    );
    expect(mail.html).toContain('(Asia/Tokyo, UTC+09:00).');
    if (target.siteUrl) {
      const link = `${target.siteUrl.replace(/\/+$/, '')}/dashboard/forms?tab=messages&message=${entryId}`;
      expect(mail.text).toContain(`Open it in your dashboard: ${link}`);
      expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    }
  });

  it('says UTC when the owner has no zone on record', async (ctx) => {
    needsMail(ctx);
    const { mail } = await notificationOf(await ownerIn(null));
    expect(mail.text).toMatch(/^Received .* \(UTC\)\.$/m);
  });

  it('keeps a zone the owner changes: the next post says the new one', async (ctx) => {
    needsMail(ctx);
    const form = await ownerIn('Europe/Berlin');
    await pool.query('update public.profiles set time_zone = $2 where id = $1', [
      form.userId,
      'America/Sao_Paulo',
    ]);
    // The function remembers a form (and its owner's zone) for a minute at most; a fresh form
    // is read now.
    const { mail } = await notificationOf(form);
    expect(mail.text).toMatch(/\(America\/Sao_Paulo, UTC-03:00\)\.$/m);
  });

  it('lets only the owner set their zone (RLS and a column grant)', async () => {
    const [a, b] = [await ownerIn(null), await ownerIn(null)];
    const set = `update public.profiles set time_zone = 'Europe/Paris' where id = $1`;
    await withActor(pool, user(a.userId), async (q) => {
      expect((await q(set, [a.userId])).rowCount).toBe(1);
      expect((await q(set, [b.userId])).rowCount).toBe(0);
      expect(
        (await q(`update public.profiles set role = 'admin' where id = $1`, [a.userId])).code,
      ).toBe('42501');
    });
    expect((await withActor(pool, anon, (q) => q(set, [a.userId]))).code).toBe('42501');
  });

  it('stores only zone names Postgres knows, of a strict shape', async () => {
    const form = await ownerIn(null);
    const set = (zone: string) =>
      pool
        .query('update public.profiles set time_zone = $2 where id = $1', [form.userId, zone])
        .then(
          () => 'stored',
          (err: { code?: string }) => err.code,
        );
    expect(await set('Mars/Olympus_Mons')).toBe('22023');
    expect(await set("Europe/Berlin'; drop table x; --")).toBe('23514');
    expect(await set(`Europe/${'x'.repeat(70)}`)).toBe('23514');
    expect(await set('America/Argentina/Buenos_Aires')).toBe('stored');
  });
});
