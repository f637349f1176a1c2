// Calls functions on a timer, as pg_cron + pg_net do on hosted Supabase (e.g. the form endpoint's
// e-mail retries: POST /functions/v1/forms/_deliver every minute with the service-role key).
export interface ScheduledCall {
  /** Function name, for logs. */
  name: string;
  method: 'POST' | 'GET';
  /** Absolute URL, through the gateway like pg_net would call it. */
  url: string;
  intervalMs: number;
  headers: Record<string, string>;
}

export interface Scheduler {
  close(): void;
}

export function startScheduler(calls: ScheduledCall[], log: (message: string) => void): Scheduler {
  const inFlight = new AbortController();
  const timers = calls.map((call) => {
    let running = false;
    const tick = async () => {
      // A slow run is not stacked with the next one.
      if (running) return;
      running = true;
      try {
        const res = await fetch(call.url, {
          method: call.method,
          headers: { 'content-type': 'application/json', ...call.headers },
          body: call.method === 'POST' ? '{}' : undefined,
          signal: inFlight.signal,
        });
        const text = await res.text();
        // 404: the function does not exist (yet); that is not worth a log line every minute.
        if (!res.ok && res.status !== 404) {
          log(`scheduled ${call.method} ${call.url}: ${res.status} ${text.slice(0, 200)}`);
        }
      } catch (err) {
        if (!inFlight.signal.aborted)
          log(`scheduled ${call.method} ${call.url} failed: ${(err as Error).message}`);
      } finally {
        running = false;
      }
    };
    const timer = setInterval(() => void tick(), call.intervalMs);
    // The timer alone must not keep a process alive.
    timer.unref();
    return timer;
  });
  return {
    close() {
      for (const t of timers) clearInterval(t);
      inFlight.abort();
    },
  };
}
