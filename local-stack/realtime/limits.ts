// The limits the Realtime stand-in enforces, modelled on Supabase Realtime's (docs "Realtime
// Limits", the Free plan column, and the tenant the CLI seeds), and the counter that measures
// rates. One Node process serves every client, so no client may make it parse or check more than
// these bounds allow: a flood costs its sender, never another subscriber.

export const REALTIME_LIMITS = {
  /**
   * WebSocket frames above this size are refused by `ws` from the frame header, before a byte of
   * the body is buffered, and the socket is closed with 1009 "message too big" (Supabase's own
   * cap is 8 MB; nothing this product sends comes near 1 MiB).
   */
  maxFrameBytes: 1024 * 1024,
  /** Channels per connection: "ChannelRateLimitReached: Too many channels". */
  maxChannelsPerClient: 100,
  /**
   * `postgres_changes` bindings per channel. Supabase has no such cap (its per-change cost lands
   * on the database instead); here every binding is evaluated in the one shared process.
   */
  maxBindingsPerChannel: 100,
  /** Connections with at least one channel: "ConnectionRateLimitReached: Too many connected users". */
  maxConcurrentUsers: 200,
  /** Joins per second per connection: "ClientJoinRateLimitReached: Too many joins per second". */
  maxJoinsPerSecond: 100,
  /** Messages per second a connection sends to its channels: "Too many messages per second". */
  maxEventsPerSecond: 100,
  /** Supabase averages rates over several ticks; bursts within this window are allowed. */
  rateWindowMs: 5000,
  /** Broadcast payloads above this size are not relayed (the Free plan's 256 KB). */
  maxBroadcastPayloadBytes: 256 * 1024,
} as const;

export const JOIN_ERRORS = {
  tooManyChannels: 'ChannelRateLimitReached: Too many channels',
  tooManyJoins: 'ClientJoinRateLimitReached: Too many joins per second',
  tooManyUsers: 'ConnectionRateLimitReached: Too many connected users',
  tooManyBindings: `TooManyBindings: a channel may carry at most ${REALTIME_LIMITS.maxBindingsPerChannel} postgres_changes bindings`,
} as const;

export const TOO_MANY_MESSAGES = 'Too many messages per second';
export const PAYLOAD_SIZE_EXCEEDED = 'payload_size_exceeded';

/**
 * Counts events in a sliding window and refuses the ones beyond `perSecond` on average over the
 * window (`perSecond × windowMs / 1000` events per window), as Supabase's rate counters do.
 */
export class RateWindow {
  private readonly times: number[] = [];
  private readonly capacity: number;

  constructor(
    perSecond: number,
    private readonly windowMs: number,
  ) {
    this.capacity = Math.max(1, Math.floor((perSecond * windowMs) / 1000));
  }

  /** Records an event at `now` if the window has room; returns whether it was allowed. */
  take(now = Date.now()): boolean {
    const since = now - this.windowMs;
    let drop = 0;
    while (drop < this.times.length && this.times[drop] <= since) drop++;
    if (drop) this.times.splice(0, drop);
    if (this.times.length >= this.capacity) return false;
    this.times.push(now);
    return true;
  }
}

/** A first-come, first-served bound on concurrent work (here: database checks of new bindings). */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays counted for it.
      if (next) next();
      else this.active--;
    }
  }
}
