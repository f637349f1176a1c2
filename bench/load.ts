// The benchmarks' load loop: `clients` concurrent loops of one request for a fixed time, and the
// figures drawn from it (bench/submissions.ts, bench/analytics.ts).

export interface Run {
  ok: number;
  errors: number;
  /** The first failure's message, printed so an error count can be explained. */
  firstError?: string;
  seconds: number;
  /** Each successful request's time in milliseconds, sorted. */
  latencies: number[];
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]! : NaN;
export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const perSecond = (run: Run) => run.ok / run.seconds;

/** Runs `clients` loops of `once` for `seconds`; a throw counts as an error, not a sample. */
export async function load(
  clients: number,
  seconds: number,
  once: (client: number) => Promise<void>,
): Promise<Run> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          await once(client);
          latencies.push(performance.now() - t);
          ok++;
        } catch (err) {
          errors++;
          firstError ??= (err as Error).message;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { ok, errors, firstError, seconds: (performance.now() - started) / 1000, latencies };
}
