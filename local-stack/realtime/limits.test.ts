// The rate window and the semaphore behind the Realtime stand-in's limits.
import { describe, expect, it } from 'vitest';
import { RateWindow, Semaphore } from './limits.ts';

describe('RateWindow', () => {
  it('allows perSecond × window events per window, then refuses until old ones age out', () => {
    const rate = new RateWindow(2, 5000); // 10 per 5 s
    const at = (ms: number) => rate.take(1_000_000 + ms);
    expect(Array.from({ length: 10 }, (_, i) => at(i))).toEqual(Array(10).fill(true));
    expect(at(10)).toBe(false);
    expect(at(4999)).toBe(false);
    // The first event (at 0) leaves the window at 5000.
    expect(at(5000)).toBe(true);
    expect(at(5000)).toBe(false);
  });
});

describe('Semaphore', () => {
  it('runs at most `slots` tasks at once, in arrival order', async () => {
    const slots = new Semaphore(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        order.push(n);
        running--;
        return n;
      });
    expect(await Promise.all([1, 2, 3, 4, 5].map(task))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it('frees the slot when a task fails', async () => {
    const slots = new Semaphore(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
