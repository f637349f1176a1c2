// What the `booking` function answered when supabase-js reports an error: supabase-js puts the
// function's Response in `context` for a non-2xx answer, and something else (the fetch error)
// when no answer came at all.

export interface FunctionFailure {
  /** The HTTP status, or null when the function could not be reached. */
  status: number | null;
  /** The JSON body (`code`, `error`, `field`, `next`…), {} when there was none. */
  body: Record<string, unknown>;
  /** Seconds from Retry-After, when the answer had one. */
  retryAfter: number | null;
}

interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}

function isResponse(value: unknown): value is ResponseLike {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as ResponseLike).status === 'number' &&
    typeof (value as ResponseLike).json === 'function'
  );
}

export async function readFailure(error: unknown): Promise<FunctionFailure> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!isResponse(context)) return { status: null, body: {}, retryAfter: null };
  let body: Record<string, unknown> = {};
  try {
    const parsed = await context.json();
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a gateway's page): the status says enough.
  }
  const header = Number(context.headers.get('Retry-After'));
  const fromBody = Number(body.retry_after ?? body.retryAfter);
  const retryAfter =
    Number.isFinite(header) && header > 0
      ? Math.ceil(header)
      : Number.isFinite(fromBody) && fromBody > 0
        ? Math.ceil(fromBody)
        : null;
  return { status: context.status, body, retryAfter };
}

/** The ISO starts in a body's `next`, for a slot someone else just took. */
export function nextStarts(body: Record<string, unknown>): string[] {
  const next = body.next;
  return Array.isArray(next)
    ? next.filter((s): s is string => typeof s === 'string' && !Number.isNaN(Date.parse(s)))
    : [];
}

/** A wait in words: '45 seconds', '3 minutes', 'an hour'. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'an hour' : `${hours} hours`;
}
