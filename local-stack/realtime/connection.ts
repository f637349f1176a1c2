// One Realtime WebSocket: the Phoenix channel lifecycle as Supabase Realtime runs it — join with
// postgres_changes bindings, heartbeat, access_token refresh, leave — plus public broadcast, within
// Supabase's limits on channels, joins, messages and payload sizes (see limits.ts).
import type WebSocket from 'ws';
import type pg from 'pg';
import type { Claims } from '../jwt.ts';
import type { Catalog } from './catalog.ts';
import type { Subscriber } from './delivery.ts';
import {
  decodeFrame,
  decodeUserBroadcastPush,
  encodeFrame,
  encodeUserBroadcast,
  type PhxMessage,
  type UserBroadcast,
  type Vsn,
} from './protocol.ts';
import { bindingId } from './binding-id.ts';
import {
  JOIN_ERRORS,
  PAYLOAD_SIZE_EXCEEDED,
  RateWindow,
  REALTIME_LIMITS,
  type Semaphore,
  TOO_MANY_MESSAGES,
} from './limits.ts';
import { resolveBindings, type Binding } from './subscriptions.ts';
import { checkToken } from './tokens.ts';

/** Realtime features the local stack does not serve, refused with these reasons (see README). */
const PRIVATE_UNSUPPORTED =
  'PrivateChannelNotSupported: private channels (Realtime Authorization) are not supported by the local stack';
const PRESENCE_UNSUPPORTED = 'PresenceNotSupported: presence is not supported by the local stack';

export interface ConnectionDeps {
  pool: pg.Pool;
  catalog: Catalog;
  jwtSecret: string;
  /** Every joined channel of every socket (for broadcast). */
  channelsOnTopic: (topic: string) => Iterable<Channel>;
  /** Connections that hold or are joining a channel (Supabase's connected users). */
  connectedUsers: () => number;
  /**
   * Shared by every connection: bounds the binding checks running at once, so a connection
   * joining many channels cannot take every database connection from event delivery.
   */
  bindingChecks: Semaphore;
  log: (message: string) => void;
}

export class Channel implements Subscriber {
  bindings: Binding[] = [];
  /** Bumped on every (re)subscription so a late validation result cannot overwrite a newer one. */
  generation = 0;
  expiryTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly connection: RealtimeConnection,
    readonly topic: string,
    readonly joinRef: string | null,
    public token: string,
    public claims: Claims,
    readonly params: Record<string, unknown>[],
    readonly broadcastSelf: boolean,
    readonly broadcastAck: boolean,
  ) {}

  get name() {
    return this.topic.slice('realtime:'.length);
  }

  /** Server-initiated pushes carry the join ref so the client routes them to this channel. */
  push(event: string, payload: unknown, fastlane = false) {
    this.connection.send({
      joinRef: fastlane ? null : this.joinRef,
      ref: null,
      topic: this.topic,
      event,
      payload,
    });
  }

  send(payload: unknown) {
    this.push('postgres_changes', payload, true);
  }

  get active(): boolean {
    return this.connection.channels.get(this.topic) === this;
  }

  shutdown(message: string) {
    this.connection.shutdownChannel(this, message);
  }
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export class RealtimeConnection {
  readonly channels = new Map<string, Channel>();
  /** Topics whose join is being checked: they count against the limits before they exist. */
  private readonly joining = new Set<string>();
  private readonly joinRate = new RateWindow(
    REALTIME_LIMITS.maxJoinsPerSecond,
    REALTIME_LIMITS.rateWindowMs,
  );
  private readonly eventRate = new RateWindow(
    REALTIME_LIMITS.maxEventsPerSecond,
    REALTIME_LIMITS.rateWindowMs,
  );
  /** This connection's binding checks run one after another, so it waits in line only once. */
  private bindingCheckChain: Promise<unknown> = Promise.resolve();
  /** Messages still being handled; a disconnect waits for them so earlier joins get answers. */
  private inFlight = 0;
  private closeWhenIdle = false;

  constructor(
    private ws: WebSocket,
    private vsn: Vsn,
    private socketToken: string,
    private deps: ConnectionDeps,
  ) {
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (isBinary) {
        // Binary frames only carry user broadcasts (vsn 2.0.0).
        const push = decodeUserBroadcastPush(buf);
        if (push && this.countEvent()) this.broadcast(push);
        return;
      }
      const msg = decodeFrame(buf.toString('utf8'), this.vsn);
      if (!msg) return;
      // Heartbeats go to the socket and joins have their own rate; the rest count as events.
      if (msg.topic !== 'phoenix' && msg.event !== 'phx_join' && !this.countEvent()) return;
      this.inFlight++;
      this.handle(msg)
        .catch((err: Error) => {
          this.deps.log(`message ${msg.event} failed: ${err.message}`);
          // A join is never left unanswered, or the client would wait for its timeout.
          if (msg.event === 'phx_join') this.reply(msg, 'error', { reason: 'Unable to join' });
        })
        .finally(() => {
          this.inFlight--;
          if (this.closeWhenIdle && this.inFlight === 0) this.ws.close(1000);
        });
    });
  }

  send(msg: PhxMessage) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(encodeFrame(msg, this.vsn));
  }

  /** Whether this connection counts as a connected user (holds or is joining a channel). */
  get isUser(): boolean {
    return this.channels.size > 0 || this.joining.size > 0;
  }

  /**
   * Counts one message from the client. Over the rate, Supabase shuts the channels down with
   * "Too many messages per second"; the message itself is dropped.
   */
  private countEvent(): boolean {
    if (this.eventRate.take()) return true;
    for (const channel of [...this.channels.values()]) this.shutdown(channel, TOO_MANY_MESSAGES);
    return false;
  }

  private reply(msg: PhxMessage, status: 'ok' | 'error', response: unknown) {
    this.send({
      joinRef: msg.joinRef,
      ref: msg.ref,
      topic: msg.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  }

  private async handle(msg: PhxMessage) {
    if (msg.topic === 'phoenix') {
      if (msg.event === 'heartbeat') this.reply(msg, 'ok', {});
      return;
    }
    switch (msg.event) {
      case 'phx_join':
        return this.join(msg);
      case 'phx_leave':
        return this.leave(msg);
      case 'access_token':
        return this.refreshToken(msg);
      case 'broadcast':
        return this.broadcast(this.jsonBroadcast(msg));
      case 'presence':
        // Presence is not served: track/untrack fail instead of pretending to be shared.
        if (this.channels.has(msg.topic))
          this.reply(msg, 'error', { reason: PRESENCE_UNSUPPORTED });
        return;
      default:
        // Supabase logs and ignores unexpected events.
        return;
    }
  }

  private async join(msg: PhxMessage) {
    if (!msg.topic.startsWith('realtime:') || msg.topic === 'realtime:') {
      return this.reply(msg, 'error', {
        reason: 'TopicNameRequired: You must provide a topic name',
      });
    }
    const payload = asRecord(msg.payload);
    const config = asRecord(payload.config);
    if (config.private === true) return this.reply(msg, 'error', { reason: PRIVATE_UNSUPPORTED });

    // Supabase's order: connected users, joins per second, channels per connection. A rejoin of
    // a topic replaces its channel, so it takes no new slot.
    const taken = this.channels.has(msg.topic) || this.joining.has(msg.topic);
    if (!this.isUser && this.deps.connectedUsers() >= REALTIME_LIMITS.maxConcurrentUsers)
      return this.reply(msg, 'error', { reason: JOIN_ERRORS.tooManyUsers });
    if (!this.joinRate.take()) {
      this.reply(msg, 'error', { reason: JOIN_ERRORS.tooManyJoins });
      // Supabase disconnects the whole socket, once the messages before this one are answered.
      this.closeWhenIdle = true;
      return;
    }
    if (!taken && this.channels.size + this.joining.size >= REALTIME_LIMITS.maxChannelsPerClient)
      return this.reply(msg, 'error', { reason: JOIN_ERRORS.tooManyChannels });
    const params = (Array.isArray(config.postgres_changes) ? config.postgres_changes : []).filter(
      (p): p is Record<string, unknown> => !!p && typeof p === 'object' && !Array.isArray(p),
    );
    if (params.length > REALTIME_LIMITS.maxBindingsPerChannel)
      return this.reply(msg, 'error', { reason: JOIN_ERRORS.tooManyBindings });

    const given = payload.access_token ?? payload.user_token;
    // Opaque `sb_…` keys are not JWTs; the socket's apikey token stands in for them.
    const token = typeof given === 'string' && !given.startsWith('sb_') ? given : this.socketToken;
    // The slot is held while the token is checked, so joins sent at once cannot all pass.
    const reserved = !taken;
    if (reserved) this.joining.add(msg.topic);
    let check;
    try {
      check = await checkToken(token, this.deps.jwtSecret);
    } finally {
      if (reserved) this.joining.delete(msg.topic);
    }
    if (!check.ok) return this.reply(msg, 'error', { reason: `${check.code}: ${check.message}` });
    if (this.ws.readyState !== this.ws.OPEN) return;

    const broadcast = asRecord(config.broadcast);
    const previous = this.channels.get(msg.topic);
    if (previous) this.drop(previous);
    const channel = new Channel(
      this,
      msg.topic,
      msg.joinRef,
      token,
      check.claims,
      params,
      broadcast.self === true,
      broadcast.ack === true,
    );
    this.channels.set(msg.topic, channel);
    this.watchExpiry(channel);
    this.reply(msg, 'ok', { postgres_changes: params.map((p) => ({ ...p, id: bindingId(p) })) });
    if (asRecord(config.presence).enabled === true) channel.push('presence_state', {});
    if (params.length) await this.subscribePostgres(channel);
  }

  /** Validates the bindings with the channel's current claims and reports like Supabase does. */
  private async subscribePostgres(channel: Channel) {
    const generation = ++channel.generation;
    const check = this.bindingCheckChain.then(() =>
      generation !== channel.generation || this.channels.get(channel.topic) !== channel
        ? null
        : this.deps.bindingChecks.run(() =>
            resolveBindings(this.deps.pool, this.deps.catalog, channel.params, channel.claims),
          ),
    );
    this.bindingCheckChain = check.catch(() => undefined);
    let result;
    try {
      result = await check;
    } catch (err) {
      result = { ok: false as const, message: (err as Error).message };
    }
    if (result === null) return;
    if (generation !== channel.generation || this.channels.get(channel.topic) !== channel) return;
    if (result.ok) {
      channel.bindings = result.bindings;
      channel.push('system', {
        extension: 'postgres_changes',
        status: 'ok',
        message: 'Subscribed to PostgreSQL',
        channel: channel.name,
      });
    } else {
      channel.bindings = [];
      channel.push('system', {
        extension: 'postgres_changes',
        status: 'error',
        message: result.message,
        channel: channel.name,
      });
    }
  }

  private leave(msg: PhxMessage) {
    const channel = this.channels.get(msg.topic);
    if (channel) this.drop(channel);
    this.reply(msg, 'ok', {});
    this.send({
      joinRef: msg.joinRef,
      ref: msg.joinRef,
      topic: msg.topic,
      event: 'phx_close',
      payload: {},
    });
  }

  private async refreshToken(msg: PhxMessage) {
    const channel = this.channels.get(msg.topic);
    if (!channel) return;
    const token = asRecord(msg.payload).access_token;
    if (typeof token !== 'string' || token.startsWith('sb_') || token === channel.token) return;
    const check = await checkToken(token, this.deps.jwtSecret);
    if (this.channels.get(msg.topic) !== channel) return;
    if (!check.ok) return this.shutdown(channel, check.message);
    channel.token = token;
    channel.claims = check.claims;
    this.watchExpiry(channel);
    if (channel.params.length) await this.subscribePostgres(channel);
  }

  /** A broadcast sent as a JSON frame (vsn 1.0.0, or vsn 2.0.0 without a string event). */
  private jsonBroadcast(msg: PhxMessage): UserBroadcast {
    const payload = asRecord(msg.payload);
    return {
      joinRef: msg.joinRef,
      ref: msg.ref,
      topic: msg.topic,
      event: typeof payload.event === 'string' ? payload.event : '',
      payload: Buffer.from(JSON.stringify(payload.payload ?? {})),
      json: true,
      metadata: '',
    };
  }

  /** Public broadcast: relayed to the other sockets on the topic, and to the sender if asked. */
  private broadcast(msg: UserBroadcast) {
    const sender = this.channels.get(msg.topic);
    if (!sender) return;
    if (msg.payload.length > REALTIME_LIMITS.maxBroadcastPayloadBytes) {
      // Not relayed; an acknowledged broadcast learns why (supabase-js `send` resolves 'error').
      if (sender.broadcastAck && msg.ref) {
        this.send({
          joinRef: msg.joinRef,
          ref: msg.ref,
          topic: msg.topic,
          event: 'phx_reply',
          payload: { status: 'error', response: { reason: PAYLOAD_SIZE_EXCEEDED } },
        });
      }
      return;
    }
    for (const channel of this.deps.channelsOnTopic(msg.topic)) {
      if (channel === sender && !sender.broadcastSelf) continue;
      channel.connection.deliverBroadcast(channel, msg);
    }
    if (sender.broadcastAck && msg.ref) {
      this.send({
        joinRef: msg.joinRef,
        ref: msg.ref,
        topic: msg.topic,
        event: 'phx_reply',
        payload: { status: 'ok', response: {} },
      });
    }
  }

  private deliverBroadcast(channel: Channel, msg: UserBroadcast) {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.vsn === '2.0.0') {
      this.ws.send(encodeUserBroadcast(msg), { binary: true });
      return;
    }
    // A vsn 1.0.0 socket cannot carry binary payloads, as in Supabase.
    if (!msg.json) return;
    let payload: unknown;
    try {
      payload = JSON.parse(msg.payload.toString('utf8'));
    } catch {
      return;
    }
    const body: Record<string, unknown> = { type: 'broadcast', event: msg.event, payload };
    try {
      if (msg.metadata) body.meta = JSON.parse(msg.metadata) as unknown;
    } catch {
      // Metadata is optional; a malformed one is dropped rather than the message.
    }
    channel.push('broadcast', body, true);
  }

  /** Supabase re-checks the token when it expires and shuts the channel down if it has. */
  private watchExpiry(channel: Channel) {
    if (channel.expiryTimer) clearTimeout(channel.expiryTimer);
    const exp = Number(channel.claims.exp) * 1000;
    // Timers cannot wait longer than ~24 days; re-arm at most hourly.
    const delay = Math.min(Math.max(exp - Date.now(), 0) + 50, 60 * 60 * 1000);
    channel.expiryTimer = setTimeout(() => {
      channel.expiryTimer = null;
      if (this.channels.get(channel.topic) !== channel) return;
      checkToken(channel.token, this.deps.jwtSecret)
        .then((check) => {
          if (this.channels.get(channel.topic) !== channel) return;
          if (check.ok) this.watchExpiry(channel);
          else this.shutdown(channel, check.message);
        })
        .catch((err: Error) => this.deps.log(`token re-check failed: ${err.message}`));
    }, delay);
    channel.expiryTimer.unref();
  }

  private drop(channel: Channel) {
    if (channel.expiryTimer) clearTimeout(channel.expiryTimer);
    channel.expiryTimer = null;
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic);
  }

  /** Ends the channel (if still joined) as Supabase does when a limit is exceeded. */
  shutdownChannel(channel: Channel, message: string) {
    if (this.channels.get(channel.topic) === channel) this.shutdown(channel, message);
  }

  /** Ends a channel as Supabase does: a `system` error, then Phoenix closes it. */
  private shutdown(channel: Channel, message: string) {
    this.drop(channel);
    channel.push('system', {
      extension: 'system',
      status: 'error',
      message,
      channel: channel.name,
    });
    this.send({
      joinRef: channel.joinRef,
      ref: channel.joinRef,
      topic: channel.topic,
      event: 'phx_close',
      payload: {},
    });
  }

  close() {
    for (const channel of [...this.channels.values()]) this.drop(channel);
    this.channels.clear();
  }

  /**
   * Closes the socket as a stopping server does: a close frame (1001, going away); resolves once
   * the client has answered it (or the socket is gone).
   */
  goAway(): Promise<void> {
    const ws = this.ws;
    if (ws.readyState === ws.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      ws.once('close', () => resolve());
      if (ws.readyState === ws.OPEN) ws.close(1001, 'Server shutting down');
    });
  }

  /** Cuts the socket without a closing handshake (the client did not answer in time). */
  terminate() {
    this.ws.terminate();
  }
}
