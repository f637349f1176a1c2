// When a failed e-mail delivery is tried again: exponential backoff capped at DELIVERY's limits,
// and the point at which the job is given up.
import { DELIVERY } from '../limits.ts';

/**
 * Seconds to wait before the next try after `attempts` failed attempts (1 = the first failure),
 * or null when the job has used all its attempts and must be marked failed.
 */
export function retryDelaySeconds(
  attempts: number,
  policy: typeof DELIVERY = DELIVERY,
): number | null {
  if (attempts >= policy.maxAttempts) return null;
  const delay = policy.baseDelaySeconds * 2 ** Math.max(0, attempts - 1);
  return Math.min(delay, policy.maxDelaySeconds);
}
