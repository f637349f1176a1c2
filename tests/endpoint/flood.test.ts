// A flood from one client with the DEFAULT rate limits (no test-only switch): it is cut off with
// 429 + Retry-After after LIMITS.ratePerMinute posts, while other clients posting at the same
// time still get through. Clients are told apart as in production: through the `/api/forms`
// rewrite, by the entry it appended to X-Forwarded-For and signed with the proxy secret (entries
// the client wrote itself are never read; see client-ip.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { superuserPool } from '../support/db.ts';
import {
  freshMinute,
  ORIGIN,
  publicUrl,
  rawRequest,
  resetRateLimits,
  seedForm,
  storedFor,
  urlencoded,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool.end();
});

const FLOOD = 60;
const OTHERS = 8;
const POSTS_EACH = 2;

const post = (formId: string, localAddress: string, forged?: string) =>
  rawRequest(publicUrl(stack.apiUrl, formId), {
    headers: {
      origin: ORIGIN,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      // A flooder may write any addresses it likes here; they buy it nothing.
      ...(forged ? { 'x-forwarded-for': forged } : {}),
    },
    body: urlencoded({ message: `from ${localAddress}` }),
    localAddress,
  });

describe('a flood from one client (default limits)', () => {
  it('is cut off with 429 + Retry-After while other clients still get through', async () => {
    const form = await seedForm(pool);
    await resetRateLimits(pool);
    await freshMinute(pool);

    // All at once: the flood and, in the middle of it, the other clients' posts.
    const flood = Array.from({ length: FLOOD }, (_, i) =>
      post(form.formId, '127.0.4.1', `203.0.113.${i + 1}`),
    );
    const others = Array.from({ length: OTHERS }, (_, c) =>
      (async () => {
        const statuses: number[] = [];
        for (let i = 0; i < POSTS_EACH; i++)
          statuses.push((await post(form.formId, `127.0.4.${c + 2}`)).status);
        return statuses;
      })(),
    );
    const [flooded, otherStatuses] = await Promise.all([Promise.all(flood), Promise.all(others)]);

    const accepted = flooded.filter((r) => r.status === 200);
    const refused = flooded.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(LIMITS.ratePerMinute);
    expect(refused).toHaveLength(FLOOD - LIMITS.ratePerMinute);
    for (const r of refused) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(r.body)).toMatchObject({ ok: false, code: 'rate_limited' });
    }
    expect(otherStatuses.flat()).toEqual(Array(OTHERS * POSTS_EACH).fill(200));
    expect((await storedFor(pool, form.formId)).entries).toBe(
      LIMITS.ratePerMinute + OTHERS * POSTS_EACH,
    );
  });
});
