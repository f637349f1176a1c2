// One run at a time per worker, with calls that arrive meanwhile coalesced. The campaign sender
// uses it: the scheduled `_deliver` run leaves a running one be, while a kick (`_campaigns`, a
// campaign just started) asks the running one for one more round after it, since the running
// round may already have made its last claim before the campaign was started.

export interface CoalescedRuns {
  /** Is a run going in this worker? */
  running(): boolean;
  /** Starts a run; null when one is going (it carries on, and this call adds nothing). */
  start(): Promise<void> | null;
  /**
   * Starts a run, or asks the one going for one more round once its current round ends (many
   * calls meanwhile add one round in all). Settles when the run this call joined has ended.
   */
  kick(): Promise<void>;
}

/** `round` must never reject (its failures are its own to log). */
export function coalescedRuns(round: () => Promise<unknown>): CoalescedRuns {
  let current: Promise<void> | null = null;
  let again = false;
  const loop = async () => {
    try {
      do {
        again = false;
        await round();
        // Checked, and the run marked ended, in one step: a kick lands either before (one more
        // round) or after (a new run), never in between.
      } while (again);
    } finally {
      current = null;
    }
  };
  const start = () => {
    if (current) return null;
    current = loop();
    return current;
  };
  return {
    running: () => current !== null,
    start,
    kick() {
      if (!current) return start()!;
      again = true;
      return current;
    },
  };
}
