// Load: N submissions from C concurrent clients through the real path (gateway → `forms` on Deno
// → REST → Postgres, e-mail over SMTP to the mail catcher). Every 2xx is exactly one stored row,
// nothing answers 5xx, and every non-spam entry is e-mailed exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeededForm } from '../endpoint/support.ts';
import {
  expectEachMailedOnce,
  expectLimitsLifted,
  expectStoredExactly,
  seconds,
  seedOwners,
  SIZE,
  startLoad,
  startLoadStack,
  statusCounts,
  waitAllSent,
  type LoadStack,
} from './support.ts';

let load: LoadStack;
let forms: SeededForm[];

beforeAll(async () => {
  load = await startLoadStack('volume');
  forms = await seedOwners(load.stack.pool);
});
afterAll(async () => {
  await load?.stop();
});

describe('under load', () => {
  it('stores every accepted post exactly once, answers no 5xx and e-mails each entry once', async () => {
    const run = startLoad({ apiUrl: load.stack.settings.apiUrl, forms });
    const attempts = await run.done;
    const postedMs = performance.now() - run.startedAt;
    expectLimitsLifted(load.functionLog);

    // Nothing but 2xx: with the limits lifted no post has a reason to be refused.
    expect(statusCounts(attempts)).toEqual({ 200: SIZE.submissions });
    const stored = await expectStoredExactly(load.stack.pool, forms, attempts);
    expect(stored).toHaveLength(SIZE.submissions);

    await waitAllSent(load.stack.pool, forms, 60_000 + SIZE.submissions * 20);
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
