// Posts that reach the forms function together are accepted together: one round trip and one
// transaction for the lot (supabase/functions/_shared/call-batches.ts). Through the real stack:
// a burst of posts shares transactions, and each post is still answered, counted and stored as if
// it had come alone: a repeated Idempotency-Key answers as the first, a visitor's sixth post in a
// minute is refused, the others are stored with their e-mails.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { superuserPool } from '../support/db.ts';
import { localOnly } from '../support/target.ts';
import { postFields, resetRateLimits, seedForm, storedFor, type SeededForm } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

const post = (form: SeededForm, visitor: string, message: string, key?: string) =>
  postFields(
    stack.apiUrl,
    form.formId,
    { message },
    { headers: key ? { 'idempotency-key': key } : {}, localAddress: visitor },
  );

describe('posts arriving together', () => {
  it('share transactions, and each is answered, counted and stored as if alone', async (ctx) => {
    localOnly(ctx, 'posts from several 127.x client addresses');
    const form = await seedForm(pool);
    const visitors = 30;
    const key = `burst-${Date.now()}`;
    const burst = await Promise.all([
      // Thirty visitors, two of them sending the same Idempotency-Key.
      ...Array.from({ length: visitors }, (_, i) =>
        post(form, `127.0.3.${i + 1}`, `post ${i}`, i < 2 ? key : undefined),
      ),
      // One visitor sending one post more than a minute allows.
      ...Array.from({ length: LIMITS.ratePerMinute + 1 }, (_, i) =>
        post(form, '127.0.3.200', `again ${i}`),
      ),
    ]);
    const many = burst.slice(0, visitors);
    const oneVisitor = burst.slice(visitors);

    for (const answer of many) expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(many[1].body)).toEqual(JSON.parse(many[0].body));
    expect(oneVisitor.filter((a) => a.status === 200)).toHaveLength(LIMITS.ratePerMinute);
    const refused = oneVisitor.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, JSON.parse(a.body).code])).toEqual([
      [429, 'rate_limited'],
    ]);
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Every accepted post once, with its e-mail job; the repeat stored nothing more.
    const stored = visitors - 1 + LIMITS.ratePerMinute;
    expect(await storedFor(pool, form.formId)).toEqual({ entries: stored, deliveries: stored });

    // Fewer transactions than entries: posts were accepted together. (An entry's created_at is its
    // transaction's start; its xmin would not do, each post has a subtransaction of its own.)
    const {
      rows: [{ transactions }],
    } = await pool.query<{ transactions: number }>(
      `select count(distinct created_at)::int as transactions from public.entries where form_id = $1`,
      [form.formId],
    );
    expect(transactions).toBeLessThan(stored);
  });
});
