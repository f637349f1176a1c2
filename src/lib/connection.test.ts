import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectionMonitor, type ConnectionMonitor } from './connection';

let monitor: ConnectionMonitor | undefined;
const target = new EventTarget() as unknown as Window;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  monitor?.dispose();
  vi.useRealTimers();
});

function start(probe: () => Promise<boolean>, initiallyOnline = true) {
  monitor = createConnectionMonitor({ probe, probeIntervalMs: 5000, target, initiallyOnline });
  return monitor;
}

describe('the connection monitor', () => {
  it('starts online and follows the requests: no answer is offline, any answer online', () => {
    const connection = start(vi.fn(async () => false));
    const changes = vi.fn();
    connection.subscribe(changes);
    expect(connection.isOnline()).toBe(true);
    connection.report(false);
    expect(connection.getSnapshot()).toEqual({ browserOnline: true, apiReachable: false });
    expect(connection.isOnline()).toBe(false);
    connection.report(true);
    expect(connection.isOnline()).toBe(true);
    expect(changes).toHaveBeenCalledTimes(2);
    // The same state again tells no one.
    connection.report(true);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('asks an unreachable API every few seconds until it answers, then stops asking', async () => {
    const probe = vi.fn(async () => false);
    const connection = start(probe);
    connection.report(false);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(2);
    probe.mockResolvedValue(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(connection.isOnline()).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it("follows the browser's offline and online events, asking the API at once when back", async () => {
    const probe = vi.fn(async () => true);
    const connection = start(probe);
    connection.report(false);
    target.dispatchEvent(new Event('offline'));
    expect(connection.getSnapshot()).toEqual({ browserOnline: false, apiReachable: false });
    // No probing while the browser itself is offline.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(probe).not.toHaveBeenCalled();
    target.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(connection.isOnline()).toBe(true);
  });

  it('checks on demand, one probe at a time, and counts a failing probe as unreachable', async () => {
    let answer: (reachable: boolean) => void = () => {};
    const probe = vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const connection = start(probe);
    const first = connection.check();
    const second = connection.check();
    expect(probe).toHaveBeenCalledTimes(1);
    answer(false);
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(false);
    expect(connection.isOnline()).toBe(false);

    const throwing = start(vi.fn(async () => Promise.reject(new Error('boom'))));
    await expect(throwing.check()).resolves.toBe(false);
  });
});
