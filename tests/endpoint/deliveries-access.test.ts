// Who may see and touch the e-mail outbox and the rate-limit counters: owners read the delivery
// status of their own entries; nobody but the service role writes; the endpoint's functions are
// the service role's alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import {
  asAnon,
  asUser,
  createAuthUser,
  runAs,
  serviceRole,
  superuserPool,
} from '../support/db.ts';
import { seedForm, type SeededForm } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let form: SeededForm;
let strangerId: string;
let deliveryId: string;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  form = await seedForm(pool);
  strangerId = (await createAuthUser(pool, 'Stranger')).id;
  const { rows } = await pool.query<{ r: { delivery_id: string } }>(
    `select public.accept_submission(gen_random_uuid(), $1, 'access-test', 'n', null, 'm', '{}', false,
       '{"subject":"s","text":"t","html":"h"}', 1000, 1000) as r`,
    [form.formId],
  );
  deliveryId = rows[0]!.r.delivery_id;
  // Keep the scheduled worker from sending it during the test.
  await pool.query(
    `update public.email_deliveries set next_attempt_at = now() + interval '1 hour' where id = $1`,
    [deliveryId],
  );
});
afterAll(async () => {
  await pool.query('delete from public.entries where form_id = $1', [form.formId]);
  await pool.end();
});

describe('email_deliveries access', () => {
  it('lets the owner read the status of their own deliveries only', async () => {
    const own = await asUser(
      pool,
      form.userId,
      'select id, status from public.email_deliveries where id = $1',
      [deliveryId],
    );
    expect(own.rows).toEqual([{ id: deliveryId, status: 'pending' }]);
    const stranger = await asUser(
      pool,
      strangerId,
      'select id from public.email_deliveries where id = $1',
      [deliveryId],
    );
    expect(stranger.rows).toEqual([]);
    expect((await asAnon(pool, 'select id from public.email_deliveries')).code).toBe('42501');
  });

  it('lets no signed-in user write deliveries or counters', async () => {
    const update = await asUser(
      pool,
      form.userId,
      `update public.email_deliveries set status = 'sent' where id = $1`,
      [deliveryId],
    );
    expect(update.code).toBe('42501');
    const del = await asUser(
      pool,
      form.userId,
      'delete from public.email_deliveries where id = $1',
      [deliveryId],
    );
    expect(del.code).toBe('42501');
    expect(
      (await asUser(pool, form.userId, 'select * from private.submission_rate_limits')).code,
    ).toBe('42501');
    expect((await asAnon(pool, 'select * from private.submission_rate_limits')).code).toBe('42501');
  });

  it('keeps the endpoint functions to the service role', async () => {
    const calls = [
      `select public.accept_submission(gen_random_uuid(), '${'00000000-0000-0000-0000-000000000000'}', 'x', null, null, 'm', '{}', false, null, 5, 50)`,
      'select * from public.claim_email_deliveries(null, 10, 60, 8)',
      `select public.finish_email_delivery('${'00000000-0000-0000-0000-000000000000'}', null, true, null, null)`,
    ];
    for (const sql of calls) {
      expect((await asAnon(pool, sql)).code, sql).toBe('42501');
      expect((await asUser(pool, form.userId, sql)).code, sql).toBe('42501');
      expect((await runAs(pool, serviceRole, sql)).code, sql).toBeUndefined();
    }
  });
});
