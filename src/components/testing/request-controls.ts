// What every supabase-js test double of the site shares: PostgREST's error shape, the result a
// request resolves to, and the controls a test steers a double's requests with (fail or hold them).
/** A PostgREST error as supabase-js returns it. */
export interface FakeError {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export const pgError = (code: string, message: string, hint: string | null = null): FakeError => ({
  code,
  message,
  details: null,
  hint,
});

/** What a supabase-js request resolves to. */
export type Result = { data: unknown; error: FakeError | null };

/**
 * How a double's tests steer its requests by kind: fail them, or hold them unanswered (loading
 * states). `settle` answers one request of a kind accordingly, or with `run()`.
 */
export function requestControls<Op extends string>() {
  const failures = new Map<Op, FakeError>();
  const held = new Set<Op>();
  return {
    settle(op: Op, run: () => Result): Promise<Result> {
      if (held.has(op)) return new Promise(() => undefined);
      const failure = failures.get(op);
      return Promise.resolve(failure ? { data: null, error: failure } : run());
    },
    controls: {
      /** The next requests of this kind fail with `error` until cleared with `succeed`. */
      fail: (op: Op, error: FakeError) => void failures.set(op, error),
      succeed: (op: Op) => void failures.delete(op),
      /** Requests of this kind never answer (loading states). */
      hold: (op: Op) => void held.add(op),
    },
  };
}
