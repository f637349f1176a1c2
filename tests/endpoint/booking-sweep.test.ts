// The scheduled pass's booking sweep (private.booking_sweep() through sweep_retention()): manage
// links that can no longer act go — spent ones, and those of bookings begun or cancelled — while a
// future booking's live link stays; copies of booking mail go 30 days after they were queued.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type pg from 'pg';
import { committed, createAuthUser, superuserPool, sweepRetentionIn } from '../support/db.ts';
import { createBookingForm, requestBooking, zonedInstant } from '../support/booking.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let owner: string;

const slotIn = (days: number, time: string) =>
  zonedInstant(
    'Europe/Berlin',
    new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10),
    time,
  )
    .toISOString()
    .replace('.000', '');

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  owner = (await createAuthUser(pool, 'Sweep owner')).id;
});

afterAll(async () => {
  await pool.query('delete from auth.users where id = $1', [owner]);
  await pool.end();
});

it('deletes links that can no longer act and old copies of booking mail, and nothing else', async () => {
  const { slug } = await createBookingForm(pool, owner);
  const [live, spent, begun, cancelled] = await Promise.all(
    ['09:00', '11:00', '13:00', '15:00'].map(async (time) => {
      const answer = await requestBooking(pool, slug, slotIn(30, time));
      expect(answer.status).toBe('booked');
      return answer.booking!.id;
    }),
  );
  // The setup and the sweep in one transaction: the stack's own scheduled sweep never sees the
  // setup half done, so the counts are this sweep's.
  const { mails, swept } = await committed(pool, async (client) => {
    await client.query('update private.booking_tokens set used_at = now() where booking_id = $1', [
      spent,
    ]);
    // A booking that has begun (moved into the past, buffers and all).
    await client.query(
      `update public.bookings set starts_at = now() - interval '1 hour', ends_at = now(),
              blocked = tstzrange(now() - interval '1 hour', now(), '[)') where id = $1`,
      [begun],
    );
    await client.query(
      `update public.bookings set status = 'cancelled', cancelled_at = now(), cancelled_by = 'owner' where id = $1`,
      [cancelled],
    );
    // Two mails of the booking `live`: one queued 31 days ago and sent, one fresh and sent.
    const { rows } = await client.query<{ id: string }>(
      `select d.id from public.email_deliveries d where d.user_id = $1 and d.kind = 'booking_notice' order by d.created_at limit 2`,
      [owner],
    );
    await client.query(
      `update public.email_deliveries set status = 'sent', sent_at = now() where id = any($1)`,
      [rows.map((m) => m.id)],
    );
    await client.query(
      `update public.email_deliveries set created_at = now() - interval '31 days' where id = $1`,
      [rows[0]!.id],
    );
    const answer = await sweepRetentionIn<{ booking: { tokens: number; mails: number } }>(client);
    return { mails: rows, swept: { answer } };
  });
  expect(swept!.answer.booking.tokens).toBeGreaterThanOrEqual(3);
  const { rows } = await pool.query<{ booking_id: string }>(
    'select booking_id from private.booking_tokens where booking_id = any($1)',
    [[live, spent, begun, cancelled]],
  );
  expect(rows.map((r) => r.booking_id)).toEqual([live]);
  const { rows: left } = await pool.query<{ id: string }>(
    'select id from public.email_deliveries where id = any($1)',
    [mails.map((m) => m.id)],
  );
  expect(left.map((m) => m.id)).toEqual([mails[1]!.id]);
  // The bookings themselves are the owner's history: all kept.
  const { rows: kept } = await pool.query<{ n: number }>(
    'select count(*)::int as n from public.bookings where user_id = $1',
    [owner],
  );
  expect(kept[0]!.n).toBe(4);
});
