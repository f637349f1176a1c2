// Phoenix frame encoding for both protocol versions realtime-js speaks.
// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  decodeFrame,
  decodeUserBroadcastPush,
  encodeFrame,
  encodeUserBroadcast,
  parseVsn,
} from './protocol.ts';

describe('protocol frames', () => {
  it('picks the version from the vsn query param, defaulting to 1.0.0', () => {
    expect(parseVsn(null)).toBe('1.0.0');
    expect(parseVsn('2.0.0')).toBe('2.0.0');
    expect(parseVsn('3.0.0')).toBeNull();
  });

  it('decodes and encodes vsn 2.0.0 array frames', () => {
    const msg = decodeFrame('["1","2","realtime:room","phx_join",{"config":{}}]', '2.0.0');
    expect(msg).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:room',
      event: 'phx_join',
      payload: { config: {} },
    });
    expect(
      JSON.parse(encodeFrame({ ...msg!, event: 'phx_reply', payload: { status: 'ok' } }, '2.0.0')),
    ).toEqual(['1', '2', 'realtime:room', 'phx_reply', { status: 'ok' }]);
    expect(
      encodeFrame({ joinRef: null, ref: null, topic: 't', event: 'e', payload: {} }, '2.0.0'),
    ).toBe('[null,null,"t","e",{}]');
  });

  it('decodes and encodes vsn 1.0.0 object frames', () => {
    const msg = decodeFrame(
      '{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"7"}',
      '1.0.0',
    );
    expect(msg).toEqual({
      joinRef: null,
      ref: '7',
      topic: 'phoenix',
      event: 'heartbeat',
      payload: {},
    });
    expect(JSON.parse(encodeFrame(msg!, '1.0.0'))).toEqual({
      topic: 'phoenix',
      event: 'heartbeat',
      payload: {},
      ref: '7',
      join_ref: null,
    });
  });

  it('returns null for malformed frames instead of throwing', () => {
    expect(decodeFrame('not json', '2.0.0')).toBeNull();
    expect(decodeFrame('{"topic":"x"}', '2.0.0')).toBeNull();
    expect(decodeFrame('[1,2,3]', '1.0.0')).toBeNull();
  });
});

describe('user broadcast binary frames', () => {
  it('decodes a USER_BROADCAST_PUSH and encodes a USER_BROADCAST', () => {
    const parts = ['1', '5', 'realtime:room', 'ping', ''];
    const payload = Buffer.from('{"n":1}');
    const push = Buffer.concat([
      Buffer.from([3, ...parts.map((p) => p.length), 1]),
      ...parts.map((p) => Buffer.from(p)),
      payload,
    ]);
    const decoded = decodeUserBroadcastPush(push);
    expect(decoded).toMatchObject({
      joinRef: '1',
      ref: '5',
      topic: 'realtime:room',
      event: 'ping',
      json: true,
    });
    expect(decoded!.payload.toString()).toBe('{"n":1}');

    const out = encodeUserBroadcast(decoded!);
    expect([...out.subarray(0, 5)]).toEqual([4, 13, 4, 0, 1]);
    expect(out.subarray(5).toString()).toBe('realtime:roomping{"n":1}');
  });

  it('ignores other binary kinds and truncated frames', () => {
    expect(decodeUserBroadcastPush(Buffer.from([4, 0, 0, 0, 0, 0, 1]))).toBeNull();
    expect(decodeUserBroadcastPush(Buffer.from([3, 5, 0, 0, 0, 0, 1]))).toBeNull();
  });
});
