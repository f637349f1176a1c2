// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DELIVERY } from '../limits.ts';
import { retryDelaySeconds } from './backoff.ts';

describe('delivery backoff', () => {
  it('doubles from the base delay and caps at the maximum', () => {
    const policy = { ...DELIVERY, maxAttempts: 20, baseDelaySeconds: 30, maxDelaySeconds: 300 };
    expect([1, 2, 3, 4, 5].map((a) => retryDelaySeconds(a, policy))).toEqual([
      30, 60, 120, 240, 300,
    ]);
  });

  it('gives up after the last attempt', () => {
    expect(retryDelaySeconds(DELIVERY.maxAttempts - 1)).not.toBeNull();
    expect(retryDelaySeconds(DELIVERY.maxAttempts)).toBeNull();
  });
});
