// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { mailKickRoute } from './mail-kick.ts';

const url = 'https://x.supabase.co/functions/v1/forms/_mail';

describe('the _mail route', () => {
  it('leaves every other route to the handler', () => {
    const kick = vi.fn();
    for (const route of ['_deliver', '_webhook', '6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c41'])
      expect(
        mailKickRoute(new Request(`https://x.supabase.co/functions/v1/forms/${route}`), kick),
      ).toBeNull();
    expect(kick).not.toHaveBeenCalled();
  });

  it('starts a run and answers at once, with CORS, whatever the body', async () => {
    const kick = vi.fn();
    for (const body of [undefined, '{}', 'x'.repeat(5000)]) {
      const res = await mailKickRoute(new Request(url, { method: 'POST', body }), kick)!;
      expect(res.status).toBe(202);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({ ok: true });
    }
    expect(kick).toHaveBeenCalledTimes(3);
  });

  it('answers a preflight and refuses other methods without a run', async () => {
    const kick = vi.fn();
    expect((await mailKickRoute(new Request(url, { method: 'OPTIONS' }), kick)!).status).toBe(204);
    expect((await mailKickRoute(new Request(url), kick)!).status).toBe(405);
    expect(kick).not.toHaveBeenCalled();
  });
});
