// GoTrue (Supabase Auth) stand-in mounted at /auth/v1.
import type { HttpService, StackContext } from '../context.ts';
import { sendJson } from '../http.ts';

export function createAuthService(_ctx: StackContext): HttpService {
  return {
    async handle(_req, res) {
      sendJson(res, 501, { code: 'not_implemented', message: 'Not implemented yet' });
    },
  };
}
