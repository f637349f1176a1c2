// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { webhookKickRoute } from './webhook-kick.ts';

const ID = '6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c41';
const url = 'https://x.supabase.co/functions/v1/forms/_webhook';

describe('the _webhook route', () => {
  it('leaves every other route to the handler', () => {
    const send = vi.fn();
    expect(
      webhookKickRoute(new Request('https://x.supabase.co/functions/v1/forms/_deliver'), send),
    ).toBeNull();
    expect(
      webhookKickRoute(new Request(`https://x.supabase.co/functions/v1/forms/${ID}`), send),
    ).toBeNull();
  });

  it('sends the named delivery and answers with CORS', async () => {
    const send = vi.fn(async () => undefined);
    const res = await webhookKickRoute(
      new Request(url, { method: 'POST', body: JSON.stringify({ id: ID.toUpperCase() }) }),
      send,
    )!;
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(send).toHaveBeenCalledWith(ID);
  });

  it('answers a preflight and refuses anything but a delivery id', async () => {
    const send = vi.fn(async () => undefined);
    expect((await webhookKickRoute(new Request(url, { method: 'OPTIONS' }), send)!).status).toBe(
      204,
    );
    expect((await webhookKickRoute(new Request(url), send)!).status).toBe(405);
    for (const body of [
      '',
      'nope',
      '{"id":"1 or 1=1"}',
      JSON.stringify({ id: 'x'.repeat(2000) }),
    ]) {
      expect(
        (await webhookKickRoute(new Request(url, { method: 'POST', body }), send)!).status,
      ).toBe(400);
    }
    expect(send).not.toHaveBeenCalled();
  });
});
