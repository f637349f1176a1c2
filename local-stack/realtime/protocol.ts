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
