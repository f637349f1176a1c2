// The client's requests end once: a read that finds no server fails at once (TanStack Query
// decides about retries, query-client.ts), and every request goes through the timeout.
import { afterEach, describe, expect, it, vi } from 'vitest';

// The connection monitor, only listened to here.
const report = vi.hoisted(() => vi.fn());
vi.mock('./connection', () => ({ connection: { report } }));

afterEach(() => {
  vi.unstubAllGlobals();
  report.mockClear();
});

describe('the Supabase client', () => {
  it('does not retry a read by itself when the server cannot be reached', async () => {
    const fetchStub = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchStub);
    const { supabase } = await import('./supabase');
    const started = Date.now();
    const { error } = await supabase.from('forms').select('id');
    expect(error?.message).toMatch(/Failed to fetch/);
    const reads = fetchStub.mock.calls.filter(([url]) => String(url).includes('/rest/v1/forms'));
    expect(reads).toHaveLength(1);
    // No backoff waited out before failing.
    expect(Date.now() - started).toBeLessThan(900);
    // The outcome reached the connection monitor, through the timeout's fetch.
    expect(report).toHaveBeenCalledWith(false);
  });
});
