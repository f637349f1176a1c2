// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { campaignKickRoute } from './campaign-kick.ts';

const url = 'https://x.supabase.co/functions/v1/forms/_campaigns';

describe('the _campaigns route', () => {
  it('leaves every other route to the handler', () => {
    const kick = vi.fn();
    for (const route of [
      '_deliver',
      '_mail',
      '_webhook',
      '_campaigns/x',
      '_campaign',
      '6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c41',
    ])
      expect(
        campaignKickRoute(new Request(`https://x.supabase.co/functions/v1/forms/${route}`), kick),
      ).toBeNull();
    expect(kick).not.toHaveBeenCalled();
  });

  it('starts a run and answers at once, with CORS, whatever the body', async () => {
    const kick = vi.fn();
    for (const body of [undefined, '{}', '{"campaign_id":"x","limit":1000000}', 'x'.repeat(5000)]) {
      const res = await campaignKickRoute(new Request(url, { method: 'POST', body }), kick)!;
      expect(res.status).toBe(202);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({ ok: true });
    }
    // Nothing sent reaches the run: it takes no argument.
    expect(kick).toHaveBeenCalledTimes(4);
    for (const call of kick.mock.calls) expect(call).toEqual([]);
  });

  it('answers a preflight and refuses other methods without a run', async () => {
    const kick = vi.fn();
    expect((await campaignKickRoute(new Request(url, { method: 'OPTIONS' }), kick)!).status).toBe(
      204,
    );
    expect((await campaignKickRoute(new Request(url), kick)!).status).toBe(405);
    expect(
      (await campaignKickRoute(new Request(url, { method: 'PUT', body: '{}' }), kick)!).status,
    ).toBe(405);
    expect(kick).not.toHaveBeenCalled();
  });
});
