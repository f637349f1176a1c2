// Load and faults, through the real path (gateway → `forms` on Deno → REST → Postgres, e-mail over
// SMTP to the mail catcher), on one stack for the file. First N submissions from C concurrent
// clients: every 2xx is exactly one stored row, nothing answers 5xx, every non-spam entry is
// e-mailed exactly once. Then each fault, injected while the clients post: the mail catcher
// stopped and started again (nothing lost, nothing sent twice), Postgres restarted (only
// retryable 503s meanwhile, no 2xx for a row that does not exist, every service reconnects by
// itself) and the function's Deno process killed (the stack restarts it and serving resumes).
// In the fault tests clients behave like a visitor's script that retries a retryable answer.
import { createClient } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Changes, subscribeAsDashboard } from '../support/realtime.ts';
import type { SeededForm } from '../endpoint/support.ts';
import {
  expectEachMailedOnce,
  expectLimitsLifted,
  expectStoredExactly,
  retryAfterMs,
  seconds,
  seedOwners,
  SIZE,
  startLoad,
  startLoadStack,
  statusCounts,
  waitAllSent,
  type Attempt,
  type LoadStack,
} from './support.ts';

let load: LoadStack;

beforeAll(async () => {
  load = await startLoadStack('load');
});
afterAll(async () => {
  await load?.stop();
});

const ok = (a: Attempt) => a.status >= 200 && a.status < 300;
/** Submissions that never got a 2xx, even after retries. */
const unanswered = (attempts: Attempt[]) => {
  const answered = new Set(attempts.filter(ok).map((a) => a.submission));
  return new Set(attempts.filter((a) => !answered.has(a.submission)).map((a) => a.submission));
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('under load', () => {
  it('stores every accepted post exactly once, answers no 5xx and e-mails each entry once', async () => {
    const forms = await seedOwners(load.stack.pool);
    const run = startLoad({ apiUrl: load.stack.settings.apiUrl, forms: forms });
    const attempts = await run.done;
    const postedMs = performance.now() - run.startedAt;
    expectLimitsLifted(load.functionLog);

    // Nothing but 2xx: with the limits lifted no post has a reason to be refused.
    expect(statusCounts(attempts)).toEqual({ 200: SIZE.submissions });
    const stored = await expectStoredExactly(load.stack.pool, forms, attempts);
    expect(stored).toHaveLength(SIZE.submissions);

    await waitAllSent(load.stack.pool, forms, 60_000 + SIZE.submissions * 50);
    const mailed = await expectEachMailedOnce(load.stack.settings.mailWebUrl, stored);
    const totalMs = performance.now() - run.startedAt;
    console.log(
      `[load] volume: ${SIZE.submissions} posts in ${seconds(postedMs)} ` +
        `(${Math.round(SIZE.submissions / (postedMs / 1000))} posts/s), ${stored.length} rows, ` +
        `${mailed} e-mails caught once each (${stored.length - mailed} spam, none mailed); ` +
        `all sent after ${seconds(totalMs)}`,
    );
  });
});

describe('faults under load', () => {
  it('mail catcher down for part of the run: every entry e-mailed exactly once after it is back', async () => {
    const { stack } = load;
    const forms = await seedOwners(stack.pool);
    const run = startLoad({ apiUrl: stack.settings.apiUrl, forms });

    await run.reached(Math.floor(SIZE.submissions / 4));
    await stack.mail.stop();
    const stoppedAt = run.finished();
    await run.reached(Math.floor((SIZE.submissions * 3) / 4));
    await stack.mail.start();
    const startedAt = run.finished();
    const attempts = await run.done;
    const postedMs = performance.now() - run.startedAt;
    expectLimitsLifted(load.functionLog);

    // SMTP being down never costs a visitor their post.
    expect(statusCounts(attempts)).toEqual({ 200: SIZE.submissions });
    const stored = await expectStoredExactly(stack.pool, forms, attempts);
    const { rows } = await stack.pool.query<{ n: number }>(
      `select count(*)::int as n from public.email_deliveries d join public.entries e on e.id = d.entry_id
        where e.form_id = any($1::uuid[]) and d.last_error is not null`,
      [forms.map((f) => f.formId)],
    );
    const failedFirst = rows[0]!.n;
    expect(failedFirst, 'the outage made no delivery fail: it did not hit the run').toBeGreaterThan(
      0,
    );

    // The outbox waits 30 s or more before a retry; bring the failed jobs' next attempt forward, as
    // if that time had passed, and let the scheduled `_deliver` run (every 250 ms here) send them.
    await stack.pool.query(
      `update public.email_deliveries d set next_attempt_at = now() from public.entries e
        where e.id = d.entry_id and e.form_id = any($1::uuid[]) and d.status = 'pending'`,
      [forms.map((f) => f.formId)],
    );
    await waitAllSent(stack.pool, forms, 60_000 + SIZE.submissions * 50);
    const mailed = await expectEachMailedOnce(stack.settings.mailWebUrl, stored);
    console.log(
      `[load] mail outage: catcher down from submission ${stoppedAt} to ${startedAt} of ` +
        `${SIZE.submissions}; ${failedFirst} deliveries failed and were retried; ` +
        `${mailed} e-mails caught exactly once; posted in ${seconds(postedMs)}, all sent after ` +
        `${seconds(performance.now() - run.startedAt)}`,
    );
  });

  it('Postgres restarted: 503 + Retry-After meanwhile, no 2xx without its row, and the stack recovers by itself', async () => {
    const { stack } = load;
    const forms = await seedOwners(stack.pool);
    // The first owner watches the dashboard's live channel through the whole restart.
    const owner = await signIn(forms[0]!);
    const changes = new Changes();
    await subscribeAsDashboard(owner, forms[0]!.userId, changes);

    const run = startLoad({
      apiUrl: stack.settings.apiUrl,
      forms,
      // A visitor's script honouring Retry-After (capped at 1 s to keep the test short).
      retry: (a) => (a.status === 503 && a.retryAfter ? retryAfterMs(a) : null),
    });
    await run.reached(Math.floor(SIZE.submissions / 3));
    const down = performance.now() - run.startedAt;
    await stack.postgres.stop();
    await pause(2_000);
    await stack.postgres.start();
    const up = performance.now() - run.startedAt;
    const attempts = await run.done;

    const refused = attempts.filter((a) => !ok(a));
    expect(refused.length, 'no request met the outage').toBeGreaterThan(0);
    // Every refusal is retryable and says when to come back.
    expect(refused.filter((a) => a.status !== 503 || !a.retryAfter)).toEqual([]);
    // Every submission got through in the end: the function, REST and its pool recovered.
    expect(unanswered(attempts)).toEqual(new Set());
    expect(attempts.filter((a) => ok(a) && a.at > up).length).toBeGreaterThan(0);
    // A 503 may follow a commit whose answer was lost: only then may a retry store a second row.
    const stored = await expectStoredExactly(stack.pool, forms, attempts, (a) => a.status === 503);

    // Realtime's replication reconnected: an entry accepted after the restart reaches the owner.
    const after = attempts.find((a) => ok(a) && a.at > up && a.formId === forms[0]!.formId);
    expect(after).toBeDefined();
    await changes.waitFor(
      (c) => c.eventType === 'INSERT' && (c.new as { id?: string }).id === after!.id,
      20_000,
    );
    await owner.removeAllChannels();

    console.log(
      `[load] Postgres restart: down at ${seconds(down)}, back at ${seconds(up)}; ` +
        `answers ${JSON.stringify(statusCounts(attempts))}; ${stored.length} rows for ` +
        `${SIZE.submissions} submissions; realtime delivered a post-restart insert`,
    );
  });

  it('function process killed: the stack restarts it and serving resumes', async () => {
    const { stack, functionLog } = load;
    const forms = await seedOwners(stack.pool);
    const run = startLoad({
      apiUrl: stack.settings.apiUrl,
      forms,
      // In flight at the kill: 500 WORKER_ERROR (may have acted) or 503 (never reached it).
      retry: (a) => (a.status === 500 || a.status === 503 || a.status === 0 ? 200 : null),
    });
    await run.reached(Math.floor(SIZE.submissions / 3));
    const killedPid = stack.functions.kill('forms');
    expect(killedPid).toBeDefined();
    const killedAt = performance.now() - run.startedAt;
    const attempts = await run.done;

    expect(functionLog.some((l) => l.includes(`worker ${killedPid} exited (SIGKILL)`))).toBe(true);
    const restarted = functionLog.filter((l) => /forms: worker \d+ ready/.test(l)).at(-1);
    expect(restarted).not.toContain(`worker ${killedPid} `);
    expect(unanswered(attempts)).toEqual(new Set());
    expect(attempts.filter((a) => ok(a) && a.at > killedAt).length).toBeGreaterThan(0);
    const refused = attempts.filter((a) => !ok(a));
    expect(refused.filter((a) => ![0, 500, 503].includes(a.status))).toEqual([]);
    const stored = await expectStoredExactly(stack.pool, forms, attempts, (a) => !ok(a));
    console.log(
      `[load] function killed (pid ${killedPid}) at ${seconds(killedAt)}; answers ` +
        `${JSON.stringify(statusCounts(attempts))}; ${stored.length} rows for ` +
        `${SIZE.submissions} submissions`,
    );
  });
});

/** A signed-in supabase-js client of a seeded owner (tests/support/db.ts's password). */
async function signIn(form: SeededForm) {
  const client = createClient(load.stack.settings.apiUrl, load.stack.settings.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
  const { error } = await client.auth.signInWithPassword({
    email: form.targetEmail,
    password: 'password123',
  });
  if (error) throw error;
  return client;
}
