import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchWithTimeout, isTimeoutError, RequestTimeoutError } from './fetch-with-timeout';

/** A fetch that never answers, but rejects as fetch does when its signal aborts. */
const hangingFetch = vi.fn(
  (_input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () =>
        reject(init.signal?.reason ?? new DOMException('Aborted', 'AbortError')),
      );
    }),
);

beforeEach(() => {
  vi.useFakeTimers();
  hangingFetch.mockClear();
});
afterEach(() => vi.useRealTimers());

describe('fetchWithTimeout', () => {
  it('fails a request the server does not answer in time, as a network failure reads', async () => {
    const onOutcome = vi.fn();
    const request = fetchWithTimeout(hangingFetch, { timeoutMs: 12_000, onOutcome })('/rest');
    const settled = expect(request).rejects.toBeInstanceOf(RequestTimeoutError);
    await vi.advanceTimersByTimeAsync(11_999);
    expect(onOutcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await settled;
    await expect(request).rejects.toThrow(
      /^Failed to fetch: no answer from the server within 12 s$/,
    );
    // A TypeError, as the browser's own network failure is: supabase-js reports it as one.
    await expect(request).rejects.toBeInstanceOf(TypeError);
    expect(onOutcome).toHaveBeenCalledWith(false);
  });

  it('passes an answer through, whatever its status, and reports the API reachable', async () => {
    const onOutcome = vi.fn();
    const answer = new Response('nope', { status: 503 });
    const fetchOk = vi.fn(async () => answer);
    await expect(fetchWithTimeout(fetchOk, { onOutcome })('/rest')).resolves.toBe(answer);
    expect(onOutcome).toHaveBeenCalledWith(true);
    // The timer is gone: nothing fires later.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports a network failure as unreachable and passes the error on', async () => {
    const onOutcome = vi.fn();
    const failing = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(fetchWithTimeout(failing, { onOutcome })('/rest')).rejects.toThrow(
      'Failed to fetch',
    );
    expect(onOutcome).toHaveBeenCalledWith(false);
  });

  it("keeps the caller's own abort: an AbortError, and nothing said about the server", async () => {
    const onOutcome = vi.fn();
    const controller = new AbortController();
    const request = fetchWithTimeout(hangingFetch, { onOutcome })('/rest', {
      signal: controller.signal,
    });
    controller.abort();
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
    expect(onOutcome).not.toHaveBeenCalled();
    expect(hangingFetch.mock.calls[0][1]?.signal?.aborted).toBe(true);
  });

  it('tells a timeout apart, also inside the error supabase-js makes of it', () => {
    const timeout = new RequestTimeoutError(12_000);
    expect(isTimeoutError(timeout)).toBe(true);
    // PostgREST's client reports `${name}: ${message}` of a failed fetch.
    expect(isTimeoutError({ message: `TypeError: ${timeout.message}`, code: '' })).toBe(true);
    expect(isTimeoutError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isTimeoutError(null)).toBe(false);
  });
});
