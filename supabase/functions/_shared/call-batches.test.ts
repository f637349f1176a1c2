import { describe, expect, it } from 'vitest';
import { createCallBatches, type RunTogether } from './call-batches.ts';

class StatementError extends Error {}

/** A database stand-in: each run waits until released; a statement 'bad…' fails its whole run. */
function fakeDatabase() {
  const runs: string[][] = [];
  const releases: (() => void)[] = [];
  const run: RunTogether = async (statements) => {
    runs.push([...statements]);
    await new Promise<void>((resolve) => releases.push(resolve));
    const bad = statements.find((s) => s.startsWith('bad'));
    if (bad) throw new StatementError(`${bad} failed`);
    if (statements.includes('offline')) throw new Error('connection refused');
    return statements.map((s) => `done ${s}`);
  };
  /** Lets every run started so far finish, then waits for what they set off. */
  const release = async () => {
    for (const r of releases.splice(0)) r();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { runs, run, release };
}

function batchesOver(db: ReturnType<typeof fakeDatabase>, limits = {}) {
  return createCallBatches({
    run: db.run,
    isStatementError: (err) => err instanceof StatementError,
    maxCalls: 16,
    maxChars: 1000,
    ...limits,
  });
}

describe('call batches', () => {
  it('sends a lone call at once, by itself', async () => {
    const db = fakeDatabase();
    const call = batchesOver(db);
    const answer = call('a');
    expect(db.runs).toEqual([['a']]);
    await db.release();
    await expect(answer).resolves.toBe('done a');
  });

  it('sends the calls that arrive meanwhile together, each answered with its own result', async () => {
    const db = fakeDatabase();
    const call = batchesOver(db);
    const answers = ['a', 'b', 'c', 'd'].map(call);
    expect(db.runs).toEqual([['a']]);
    await db.release();
    expect(db.runs).toEqual([['a'], ['b', 'c', 'd']]);
    await db.release();
    expect(await Promise.all(answers)).toEqual(['done a', 'done b', 'done c', 'done d']);
    // Nothing in flight again: the next call goes at once.
    const later = call('e');
    expect(db.runs.at(-1)).toEqual(['e']);
    await db.release();
    await expect(later).resolves.toBe('done e');
  });

  it('keeps a batch within its number of calls and its length', async () => {
    const db = fakeDatabase();
    const call = batchesOver(db, { maxCalls: 2, maxChars: 6 });
    const answers = ['first', 'a', 'b', 'c', 'dddd', 'eeee', 'longer than six'].map(call);
    for (let i = 0; i < 6; i++) await db.release();
    expect(db.runs).toEqual([['first'], ['a', 'b'], ['c', 'dddd'], ['eeee'], ['longer than six']]);
    expect(await Promise.all(answers)).toHaveLength(7);
  });

  it('runs each call of a batch alone when one statement fails, so only that one fails', async () => {
    const db = fakeDatabase();
    const call = batchesOver(db);
    const first = call('a');
    const answers = ['b', 'bad c', 'd'].map((s) =>
      call(s).then(String, (err: Error) => err.message),
    );
    await db.release(); // 'a'
    await db.release(); // the batch, which fails
    expect(db.runs.slice(1)).toEqual([['b', 'bad c', 'd'], ['b'], ['bad c'], ['d']]);
    await db.release(); // each alone
    expect(await Promise.all(answers)).toEqual(['done b', 'bad c failed', 'done d']);
    await expect(first).resolves.toBe('done a');
  });

  it('fails every call of a batch when the connection fails, without trying each again', async () => {
    const db = fakeDatabase();
    const call = batchesOver(db);
    void call('a');
    const answers = ['b', 'offline'].map((s) => call(s).then(String, (err: Error) => err.message));
    await db.release();
    await db.release();
    expect(await Promise.all(answers)).toEqual(['connection refused', 'connection refused']);
    expect(db.runs).toEqual([['a'], ['b', 'offline']]);
    // And the next call is sent as usual.
    const next = call('e');
    await db.release();
    await expect(next).resolves.toBe('done e');
  });

  it('holds the next batch until the calls run alone are done', async () => {
    const db = fakeDatabase();
    const call = batchesOver(db);
    void call('a');
    const failing = ['bad b', 'c'].map((s) => call(s).catch(() => 'failed'));
    await db.release(); // 'a'
    await db.release(); // the batch fails; 'bad b' and 'c' start alone
    const later = call('d');
    expect(db.runs.at(-1)).toEqual(['c']);
    await db.release(); // the two alone
    expect(db.runs.at(-1)).toEqual(['d']);
    await db.release();
    await expect(later).resolves.toBe('done d');
    expect(await Promise.all(failing)).toEqual(['failed', 'done c']);
  });
});
