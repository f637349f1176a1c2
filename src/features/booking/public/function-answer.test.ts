import { describe, expect, it } from 'vitest';
import { formatWait, nextStarts, readFailure } from './function-answer';

describe('the booking function’s refusals', () => {
  it('reads the status, the JSON body and Retry-After of a non-2xx answer', async () => {
    const context = new Response(JSON.stringify({ code: 'rate_limited', error: 'Slow down' }), {
      status: 429,
      headers: { 'Retry-After': '61', 'Content-Type': 'application/json' },
    });
    expect(await readFailure({ context })).toEqual({
      status: 429,
      body: { code: 'rate_limited', error: 'Slow down' },
      retryAfter: 61,
    });
  });

  it('takes a body that is not JSON as an empty one', async () => {
    const context = new Response('<html>Bad gateway</html>', { status: 502 });
    expect(await readFailure({ context })).toEqual({ status: 502, body: {}, retryAfter: null });
  });

  it('says no answer came when there is no response', async () => {
    expect(await readFailure({ context: new TypeError('Failed to fetch') })).toEqual({
      status: null,
      body: {},
      retryAfter: null,
    });
    expect(await readFailure(null)).toEqual({ status: null, body: {}, retryAfter: null });
  });

  it('keeps only instants from `next`', () => {
    expect(nextStarts({ next: ['2026-12-01T08:00:00Z', 'soon', 3] })).toEqual([
      '2026-12-01T08:00:00Z',
    ]);
    expect(nextStarts({})).toEqual([]);
  });

  it('puts a wait into words', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(45)).toBe('45 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(90)).toBe('2 minutes');
    expect(formatWait(3600)).toBe('an hour');
    expect(formatWait(7200)).toBe('2 hours');
  });
});
