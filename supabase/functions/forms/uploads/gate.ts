// How many multipart bodies one worker reads at once. Each body being read holds buffers on its
// way from the socket to Storage, so memory grows with the uploads in flight; past `atOnce` a post
// waits its turn (its bytes stay in the socket: TCP holds the sender back) and past `waiting`
// more it is turned away to retry. The worker's memory then follows `atOnce`, not how many
// uploads arrive together (`npm run bench:uploads`), and throughput stays the same: a few streams
// already keep the disk and the cores busy.

export interface UploadGate {
  /** A release to call once the body is read, or null when too many posts already wait. */
  enter(): Promise<(() => void) | null>;
}

export function createUploadGate(limits: { atOnce: number; waiting: number }): UploadGate {
  let running = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    // The turn passes straight to the next in line, so `running` never drops below a waiter.
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  const once = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };
  return {
    enter() {
      if (running < limits.atOnce) {
        running++;
        return Promise.resolve(once());
      }
      if (queue.length >= limits.waiting) return Promise.resolve(null);
      return new Promise((resolve) => queue.push(() => resolve(once())));
    },
  };
}
