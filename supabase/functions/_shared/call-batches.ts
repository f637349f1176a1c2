// Calls that arrive while another is in flight go to the database together: one round trip and one
// transaction for the lot, instead of one each. Under load this is most of a call's cost beside its
// own work (the driver's socket writes, parsing the statement, the commit), and posts to one form
// no longer queue on its counter rows from separate transactions. Pure: database.ts runs the SQL.
//
// A batch is all or nothing in the database, so one call's failure must not become its
// neighbours': when a batch of several fails with a statement's error, each of its calls is run
// again alone, and answers as it would have without batching. A failure of the connection (the
// database away) fails the whole batch at once, as each call would have failed.

/** Runs statements in one transaction; one result per statement, in order, or throws. */
export type RunTogether = (statements: readonly string[]) => Promise<unknown[]>;

export interface CallBatchesOptions {
  run: RunTogether;
  /** Whether a batch's failure was one statement's (so the others may succeed alone). */
  isStatementError(err: unknown): boolean;
  /** Calls in one batch at most. */
  maxCalls: number;
  /** Statement text in one batch at most (characters; a longer call still goes, alone). */
  maxChars: number;
}

interface Pending {
  statement: string;
  resolve(result: unknown): void;
  reject(err: unknown): void;
}

/**
 * A function that runs one statement, batched with the others that wait. One batch is in flight at
 * a time: the next one holds whatever arrived meanwhile. A call that finds nothing in flight goes
 * at once, so a lone call waits for nothing.
 */
export function createCallBatches(
  opts: CallBatchesOptions,
): (statement: string) => Promise<unknown> {
  const waiting: Pending[] = [];
  let inFlight = false;

  function nextBatch(): Pending[] {
    let chars = 0;
    let count = 0;
    while (count < waiting.length && count < opts.maxCalls) {
      chars += waiting[count].statement.length;
      if (count > 0 && chars > opts.maxChars) break;
      count++;
    }
    return waiting.splice(0, count);
  }

  async function runAlone(call: Pending): Promise<void> {
    try {
      const [result] = await opts.run([call.statement]);
      call.resolve(result);
    } catch (err) {
      call.reject(err);
    }
  }

  async function runBatch(batch: Pending[]): Promise<void> {
    try {
      const results = await opts.run(batch.map((call) => call.statement));
      batch.forEach((call, i) => call.resolve(results[i]));
    } catch (err) {
      if (batch.length > 1 && opts.isStatementError(err)) {
        // Nothing of the batch was kept (its transaction rolled back): each call again, alone.
        await Promise.all(batch.map(runAlone));
      } else {
        for (const call of batch) call.reject(err);
      }
    }
  }

  async function drain(): Promise<void> {
    inFlight = true;
    try {
      while (waiting.length > 0) await runBatch(nextBatch());
    } finally {
      inFlight = false;
    }
  }

  return (statement) =>
    new Promise((resolve, reject) => {
      waiting.push({ statement, resolve, reject });
      if (!inFlight) void drain();
    });
}
