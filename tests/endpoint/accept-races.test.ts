// Racing posts against each cap accept_submission() counts with one conditional UPDATE (the
// client's one-minute and one-day windows, the form's minute, the account's notification caps)
// and the newsletter's client windows: posts sent at once, each on its own connection, take
// exactly what the cap leaves, never more, and the refused ones say how long to wait. And the
// compact ring counters behind the form's and the account's caps count what the rings they
// replaced counted.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createAuthUser, createForm } from '../support/db.ts';
import { freshMinute, resetRateLimits, storedFor } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;

beforeAll(() => {
  // One connection per racing post.
  pool = new pg.Pool({ connectionString: stack.dbUrl, max: 24 });
});
afterAll(async () => {
  await pool.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

interface Answer {
  status: string;
  retry_after?: number;
  delivery_id?: string | null;
  notification_skipped?: string | null;
}

interface Caps {
  perMinute?: number;
  perDay?: number;
  formPerMinute?: number | null;
  accountPerHour?: number | null;
  accountPerDay?: number | null;
}

const accept = (formId: string, ip: string, caps: Caps) =>
  pool
    .query<{ r: Answer }>(
      `select public.accept_submission(gen_random_uuid(), $1, $2, 'Ada', 'ada@example.test',
         'racing', '{}', false, '{"subject":"s","text":"t","html":"h"}', $3, $4, $5, $6, $7) as r`,
      [
        formId,
        ip,
        caps.perMinute ?? 1000,
        caps.perDay ?? 1000,
        caps.formPerMinute ?? null,
        caps.accountPerHour ?? null,
        caps.accountPerDay ?? null,
      ],
    )
    .then((res) => res.rows[0]!.r);

/** A confirmed account and a form that e-mails the account's own address. */
async function ownForm() {
  const owner = await createAuthUser(pool, 'Racer');
  const formId = await createForm(pool, owner.id, { target_email: owner.email });
  return { formId, userId: owner.id };
}

const race = <T>(n: number, one: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => one(i)));

const byStatus = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>(
    (counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }),
    {},
  );

describe('racing posts', () => {
  it('from one client take exactly its minute, then wait for the next', async () => {
    const { formId } = await ownForm();
    await freshMinute(pool);
    const answers = await race(20, () => accept(formId, 'racer', { perMinute: 5, perDay: 50 }));
    expect(byStatus(answers)).toEqual({ accepted: 5, rate_limited: 15 });
    for (const a of answers.filter((a) => a.status === 'rate_limited')) {
      expect(a.retry_after).toBeGreaterThanOrEqual(1);
      expect(a.retry_after).toBeLessThanOrEqual(60);
    }
    expect((await storedFor(pool, formId)).entries).toBe(5);
    // Another client of the form is counted on its own.
    expect((await accept(formId, 'other', { perMinute: 5, perDay: 50 })).status).toBe('accepted');
  });

  it('from one client take exactly its day, then wait until the day ends', async () => {
    const { formId } = await ownForm();
    await freshMinute(pool);
    const answers = await race(12, () => accept(formId, 'racer', { perMinute: 10, perDay: 3 }));
    expect(byStatus(answers)).toEqual({ accepted: 3, rate_limited: 9 });
    const { rows } = await pool.query<{ s: number }>(
      `select extract(epoch from date_trunc('day', now()) + interval '1 day' - now())::float8 as s`,
    );
    for (const a of answers.filter((a) => a.status === 'rate_limited')) {
      expect(a.retry_after).toBeGreaterThanOrEqual(Math.min(rows[0]!.s - 30, 61));
    }
  });

  it('from many clients take exactly the form’s minute', async () => {
    const { formId } = await ownForm();
    const answers = await race(24, (i) => accept(formId, `client-${i}`, { formPerMinute: 7 }));
    expect(byStatus(answers)).toEqual({ accepted: 7, rate_limited: 17 });
    for (const a of answers.filter((a) => a.status === 'rate_limited')) {
      expect(a.retry_after).toBeGreaterThanOrEqual(1);
      expect(a.retry_after).toBeLessThanOrEqual(60);
    }
    expect((await storedFor(pool, formId)).entries).toBe(7);
  });

  it('queue exactly the notifications the account’s hour and day leave, storing every post', async () => {
    const hourly = await ownForm();
    const answers = await race(16, (i) =>
      accept(hourly.formId, `client-${i}`, { accountPerHour: 4, accountPerDay: 100 }),
    );
    expect(byStatus(answers)).toEqual({ accepted: 16 });
    expect(answers.filter((a) => a.delivery_id).length).toBe(4);
    expect(answers.filter((a) => a.notification_skipped === 'hourly_limit').length).toBe(12);
    expect(await storedFor(pool, hourly.formId)).toEqual({ entries: 16, deliveries: 4 });

    const daily = await ownForm();
    const day = await race(10, (i) =>
      accept(daily.formId, `client-${i}`, { accountPerHour: 100, accountPerDay: 3 }),
    );
    expect(day.filter((a) => a.delivery_id).length).toBe(3);
    expect(day.filter((a) => a.notification_skipped === 'daily_limit').length).toBe(7);
  });

  it('past the account’s cap, with an autoresponder, all get stored without waiting on each other', async () => {
    // The autoresponder takes the account's lock when the entry is stored; a post that meets the
    // notification cap is stored again after its counts, and must not deadlock with the others.
    const form = await ownForm();
    await pool.query(
      `insert into public.form_autoresponders (form_id, user_id, enabled, body)
       values ($1, $2, true, 'Thanks, {{name}}')`,
      [form.formId, form.userId],
    );
    const answers = await race(16, (i) =>
      accept(form.formId, `client-${i}`, { accountPerHour: 2, accountPerDay: 100 }),
    );
    expect(byStatus(answers)).toEqual({ accepted: 16 });
    expect(answers.filter((a) => a.delivery_id).length).toBe(2);
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 16, deliveries: 2 });
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from public.email_deliveries d
         join public.entries e on e.id = d.source_entry_id
        where e.form_id = $1 and d.kind = 'autoresponse'`,
      [form.formId],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('to the newsletter from one client take exactly its minute', async (ctx) => {
    const { rows: site } = await pool.query(
      'select 1 from public.newsletter_lists where site_list',
    );
    // The local stack is seeded with one; a deployment marks its own (README).
    if (!site.length)
      ctx.skip('no list is the site list yet: select public.set_site_list(<list id>)');
    const client = `newsletter-racer-${randomUUID().slice(0, 8)}`;
    // The footer's first step (the site list's client allowance), as the function calls it.
    const answers = await race(12, () =>
      pool
        .query<{ r: Answer }>(
          `select public.list_signup_attempt(null, null, $1,
                                             '{"per_client_minute": 4, "per_client_day": 20}') as r`,
          [client],
        )
        .then((res) => res.rows[0]!.r),
    );
    const counts = byStatus(answers);
    expect(counts.rate_limited).toBe(8);
    expect(counts.ok).toBe(4);
  });
});

/**
 * The ring counters as they were before 20261212100000_cheaper_accept.sql: a unit beside every
 * slot. A slot counts its unit; a newer unit takes the slot over; an older one than the slot
 * holds is dropped. The model the new helpers (a count per slot and the latest unit) must match.
 */
class UnitRing {
  private readonly hits: number[];
  private readonly units: number[];
  constructor(private readonly size: number) {
    this.hits = Array<number>(size).fill(0);
    this.units = Array<number>(size).fill(-1);
  }
  add(unit: number, by: number): void {
    const slot = unit % this.size;
    if (this.units[slot]! < unit) {
      this.hits[slot] = by;
      this.units[slot] = unit;
    } else if (this.units[slot] === unit) {
      this.hits[slot]! += by;
    }
  }
  /** What the slots of `since` and later counted. */
  count(since: number): number {
    return this.units.reduce((sum, u, i) => (u >= since ? sum + this.hits[i]! : sum), 0);
  }
  /** The oldest unit since `since` with a count, or null. */
  oldest(since: number): number | null {
    const counted = this.units.filter((u, i) => u >= since && this.hits[i]! > 0);
    return counted.length ? Math.min(...counted) : null;
  }
}

describe('ring counters', () => {
  it('count what a ring with a unit per slot counted, step by step', async () => {
    // A fixed pseudo-random walk over the units (seconds), with repeats, gaps shorter and longer
    // than the ring, and a step back (a transaction that began a little earlier).
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const steps = [0, 0, 0, 1, 1, 2, 3, 7, 30, 58, 59, 60, 61, 125, -1];
    let unit = 1_800_000_000;
    const model = new UnitRing(60);
    let ring = { hits: [] as number[], last: null as string | null };
    for (let i = 0; i < 300; i++) {
      unit += steps[Math.floor(next() * steps.length)]!;
      const by = 1 + Math.floor(next() * 3);
      model.add(unit, by);
      const { rows } = await pool.query<{
        hits: number[];
        last: string;
        count: number;
        first: string | null;
      }>(
        `select n.hits, n.last,
                private.ring_sum(n.hits, n.last, $3::bigint, 60) as count,
                private.ring_first(n.hits, n.last, $3::bigint, 60) as first
           from private.ring_take($1::integer[], $2::bigint, $3::bigint, 60, $4) n`,
        [ring.hits, ring.last, unit, by],
      );
      const r = rows[0]!;
      const first = model.oldest(unit - 59);
      expect([i, r.count, r.first], `unit ${unit}`).toEqual([
        i,
        model.count(unit - 59),
        first === null ? null : String(first),
      ]);
      ring = { hits: r.hits, last: r.last };
    }
  });
});
