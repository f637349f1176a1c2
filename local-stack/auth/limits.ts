// GoTrue's abuse limits: per-IP token buckets for the endpoints config.toml's [auth.rate_limit]
// names (429 over_request_rate_limit), and [auth.email] max_frequency between two mails of one
// kind to an address (429 over_email_send_rate_limit).
import type { IncomingMessage } from 'node:http';
import type { AuthRateLimits } from '../config.ts';
import { AuthError } from './errors.ts';

/** GoTrue builds every IP limiter with `SetBurst(30)`, whatever the configured rate. */
export const BURST = 30;
/** The budgets are per 5 minutes; tollbooth forgets an address an hour after its last request. */
const PERIOD_MS = 5 * 60 * 1000;
const IDLE_MS = 60 * 60 * 1000;

/**
 * A token bucket per key (tollbooth's): it starts full with `burst` tokens and refills at
 * `perPeriod` tokens per 5 minutes; a request takes one token or is refused.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    perPeriod: number,
    private readonly burst = BURST,
  ) {
    this.perMs = perPeriod / PERIOD_MS;
  }

  take(key: string, now = Date.now()): boolean {
    if (this.buckets.size > 10_000) this.forgetIdle(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private forgetIdle(now: number) {
    for (const [key, bucket] of this.buckets)
      if (now - bucket.at > IDLE_MS) this.buckets.delete(key);
  }
}

/**
 * The client's address as the socket reports it. Never a header: every client writes its own
 * `X-Forwarded-For`, and GoTrue trusts one only when an operator names it (`RATE_LIMIT_HEADER`),
 * which the local stack, with nothing in front of it, has no reason to do.
 */
export function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

export type LimitedEndpoint = keyof AuthRateLimits;

const overRequestRateLimit = () =>
  new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');

/** GoTrue's wording, with its whole seconds left (rounded down, so "after 0 seconds" happens). */
function overEmailSendRateLimit(msLeft: number) {
  const seconds = Math.max(0, Math.floor(msLeft / 1000));
  return new AuthError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${seconds} seconds.`,
  );
}

export class AuthLimits {
  private readonly buckets: Record<LimitedEndpoint, TokenBuckets>;
  /** When each address was last sent a mail of each kind (`recovery`, `email_change`). */
  private readonly lastMail = new Map<string, number>();

  constructor(
    limits: AuthRateLimits,
    private readonly maxFrequencyMs: number,
  ) {
    this.buckets = {
      tokenRefresh: new TokenBuckets(limits.tokenRefresh),
      signInSignUps: new TokenBuckets(limits.signInSignUps),
      tokenVerifications: new TokenBuckets(limits.tokenVerifications),
    };
  }

  /** Spends one request of the client's budget for `endpoint`, or throws 429. */
  spend(endpoint: LimitedEndpoint, req: IncomingMessage): void {
    if (!this.buckets[endpoint].take(clientAddress(req))) throw overRequestRateLimit();
  }

  /**
   * Records a mail of `kind` to `address`, or throws 429 if the previous one is more recent than
   * max_frequency. Checked per address whether or not an account has it, so the answer tells
   * nothing about which addresses are registered (GoTrue checks the account's `*_sent_at`).
   */
  mailRequested(kind: string, address: string, now = Date.now()): void {
    const key = `${kind}\u0000${address.toLowerCase()}`;
    const last = this.lastMail.get(key);
    if (last !== undefined && now - last < this.maxFrequencyMs)
      throw overEmailSendRateLimit(last + this.maxFrequencyMs - now);
    if (this.lastMail.size > 10_000) {
      for (const [k, at] of this.lastMail)
        if (now - at >= this.maxFrequencyMs) this.lastMail.delete(k);
    }
    this.lastMail.set(key, now);
  }
}
