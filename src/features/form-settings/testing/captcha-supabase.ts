// A test double of src/lib/supabase for the CAPTCHA setting's component tests: in-memory forms and
// `set_form_captcha()`, reached through the supabase-js call the fetcher makes (`rpc`). Like the
// database, an empty secret keeps the stored one only for the same provider. A test file opts in with
//   vi.mock('../../../lib/supabase', () => import('../testing/captcha-supabase'));
// and prepares the data with resetCaptchaBackend() before each test.
import { vi } from 'vitest';
import type { Tables } from '../../../lib/database';
import { pgError, requestControls } from '../../../components/testing/request-controls';

export { pgError } from '../../../components/testing/request-controls';

type Form = Tables<'forms'>;

function createBackend(initial: { forms?: Form[] }) {
  const forms = [...(initial.forms ?? [])];
  const { settle, controls } = requestControls<'rpc'>();
  const calls = {
    rpc: vi.fn((_name: string, _args?: Record<string, unknown>) => undefined),
  };

  function rpc(name: string, args?: Record<string, unknown>) {
    calls.rpc(name, args);
    if (name !== 'set_form_captcha') throw new Error(`captcha double: unexpected rpc ${name}`);
    const form = forms.find((f) => f.id === args?.p_form_id);
    const provider = (args?.p_provider ?? null) as Form['captcha_provider'];
    return settle('rpc', () => {
      if (!form) return { data: null, error: pgError('PT404', 'This form no longer exists.') };
      if (provider && !args?.p_secret && form.captcha_provider !== provider)
        return { data: null, error: pgError('22023', 'Enter the secret key.') };
      const captcha = {
        captcha_provider: provider,
        captcha_site_key: provider ? String(args?.p_site_key ?? '') : null,
      };
      Object.assign(form, captcha);
      return { data: captcha, error: null };
    });
  }

  return { forms, calls, ...controls, rpc };
}

export type CaptchaBackend = ReturnType<typeof createBackend>;

let active: CaptchaBackend = createBackend({});

/** The client the fetcher imports; every call reaches the double of the current test. */
export const supabase = {
  rpc: (name: string, args?: Record<string, unknown>) => active.rpc(name, args),
};

export function resetCaptchaBackend(initial: { forms?: Form[] } = {}): CaptchaBackend {
  active = createBackend(initial);
  return active;
}
