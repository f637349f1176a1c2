// The outbox's batch finish against a transaction that deletes the same rows in the other order
// (a form's, an entry's or an account's cascade): neither fails with a deadlock. The finish
// records the rows it can take, never waits for one another transaction holds, and the delete
// goes on once the finish has committed.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superuserPool } from '../support/db.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(() => pool?.end());

/** A job claimed by a worker that has sent it: 'sending', its lease, due again in an hour. */
async function claimedJob(): Promise<{ id: string; lease: string }> {
  const job = { id: randomUUID(), lease: randomUUID() };
  await pool.query(
    `insert into public.email_deliveries
       (id, kind, recipient, subject, text_body, html_body, status, lease, locked_until,
        next_attempt_at, attempts)
     values ($1, 'target_confirmation', 'lock-test@example.test', 's', 't', 'h', 'sending', $2,
             now() + interval '1 hour', now() + interval '1 hour', 1)`,
    [job.id, job.lease],
  );
  return job;
}

describe('finish_email_deliveries', () => {
  it('never deadlocks with a delete that takes its rows in the other order', async () => {
    const [first, second] = [await claimedJob(), await claimedJob()];
    const deleter = await pool.connect();
    const worker = await pool.connect();
    try {
      // The delete holds the second job's row...
      await deleter.query('begin');
      await deleter.query('delete from public.email_deliveries where id = $1', [second.id]);

      // ...while the batch finishes both, as the outbox does.
      await worker.query('begin');
      await worker.query('set local role service_role');
      const finishing = worker.query<{ done: number }>(
        `select public.finish_email_deliveries($1::jsonb) as done`,
        [
          JSON.stringify(
            [first, second].map((job) => ({
              ...job,
              sent: true,
              error: null,
              retry_in_seconds: null,
            })),
          ),
        ],
      );
      // Then the delete wants the first job's row, which the batch has taken by now.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const deleting = deleter.query('delete from public.email_deliveries where id = $1', [
        first.id,
      ]);

      // The delete waits for the batch, not the other way round: no deadlock, and the batch
      // recorded the job it could take, leaving alone the one being deleted.
      const settledDelete = deleting.then(
        (result) => result,
        (err: Error) => err,
      );
      const finished = await finishing;
      expect(finished.rows[0]!.done).toBe(1);
      await worker.query('commit');
      const deleted = await settledDelete;
      expect(deleted).not.toBeInstanceOf(Error);
      expect((deleted as pg.QueryResult).rowCount).toBe(1);
      await deleter.query('commit');
    } finally {
      await worker.query('rollback').catch(() => undefined);
      await deleter.query('rollback').catch(() => undefined);
      worker.release();
      deleter.release();
    }
    const { rows } = await pool.query(
      'select id from public.email_deliveries where id = any($1::uuid[])',
      [[first.id, second.id]],
    );
    expect(rows).toEqual([]);
  });

  it('records a job another transaction held once it is let go', async () => {
    const job = await claimedJob();
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from public.email_deliveries where id = $1 for update', [
        job.id,
      ]);
      const finishing = pool.query<{ done: number }>(
        `select public.finish_email_deliveries($1::jsonb) as done`,
        [JSON.stringify([{ ...job, sent: true, error: null, retry_in_seconds: null }])],
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      await holder.query('commit');
      expect((await finishing).rows[0]!.done).toBe(1);
    } finally {
      holder.release();
    }
    const { rows } = await pool.query<{ status: string; lease: string | null }>(
      'select status, lease from public.email_deliveries where id = $1',
      [job.id],
    );
    expect(rows).toEqual([{ status: 'sent', lease: null }]);
    await pool.query('delete from public.email_deliveries where id = $1', [job.id]);
  });
});
