// Phoenix channel frames as realtime-js speaks them: vsn 2.0.0 sends JSON arrays
// `[join_ref, ref, topic, event, payload]`, vsn 1.0.0 sends JSON objects.
export type Vsn = '1.0.0' | '2.0.0';

export interface PhxMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** The Phoenix server defaults to 1.0.0 when the client names no version. */
export function parseVsn(value: string | null): Vsn | null {
  if (value === null || value === '' || value === '1.0.0') return '1.0.0';
  if (value === '2.0.0') return '2.0.0';
  return null;
}

const refOrNull = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : String(v);

/** Decodes one text frame; returns null for anything that is not a well-formed message. */
export function decodeFrame(text: string, vsn: Vsn): PhxMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(raw) || raw.length !== 5) return null;
    const [joinRef, ref, topic, event, payload] = raw as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    return { joinRef: refOrNull(joinRef), ref: refOrNull(ref), topic, event, payload };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  if (typeof o.topic !== 'string' || typeof o.event !== 'string') return null;
  return {
    joinRef: refOrNull(o.join_ref),
    ref: refOrNull(o.ref),
    topic: o.topic,
    event: o.event,
    payload: o.payload,
  };
}

export function encodeFrame(msg: PhxMessage, vsn: Vsn): string {
  if (vsn === '2.0.0')
    return JSON.stringify([msg.joinRef, msg.ref, msg.topic, msg.event, msg.payload]);
  return JSON.stringify({
    topic: msg.topic,
    event: msg.event,
    payload: msg.payload,
    ref: msg.ref,
    join_ref: msg.joinRef,
  });
}

/** realtime-js sends a user broadcast on vsn 2.0.0 as binary kind 3 and understands kind 4 back. */
const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;
const JSON_ENCODING = 1;

export interface UserBroadcast {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  /** Raw bytes of the user payload, JSON text when `json` is true. */
  payload: Buffer;
  json: boolean;
  metadata: string;
}

/** Decodes a binary USER_BROADCAST_PUSH frame; null for any other or malformed frame. */
export function decodeUserBroadcastPush(buf: Buffer): UserBroadcast | null {
  if (buf.length < 7 || buf[0] !== USER_BROADCAST_PUSH) return null;
  const [joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] = buf.subarray(1, 7);
  let offset = 7;
  const take = (len: number) => {
    const s = buf.subarray(offset, offset + len).toString('utf8');
    offset += len;
    return s;
  };
  if (buf.length < offset + joinRefLen + refLen + topicLen + eventLen + metaLen) return null;
  const joinRef = take(joinRefLen);
  const ref = take(refLen);
  const topic = take(topicLen);
  const event = take(eventLen);
  const metadata = take(metaLen);
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event,
    payload: buf.subarray(offset),
    json: encoding === JSON_ENCODING,
    metadata,
  };
}

/** Encodes a server → client USER_BROADCAST frame. */
export function encodeUserBroadcast(
  msg: Pick<UserBroadcast, 'topic' | 'event' | 'payload' | 'json' | 'metadata'>,
): Buffer {
  const topic = Buffer.from(msg.topic);
  const event = Buffer.from(msg.event);
  const metadata = Buffer.from(msg.metadata);
  const header = Buffer.from([
    USER_BROADCAST,
    topic.length,
    event.length,
    metadata.length,
    msg.json ? JSON_ENCODING : 0,
  ]);
  return Buffer.concat([header, topic, event, metadata, msg.payload]);
}
