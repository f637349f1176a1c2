// Edge Functions stand-in mounted at /functions/v1: runs supabase/functions/<name> on Deno.
import type { HttpService, StackContext } from '../context.ts';
import { sendJson } from '../http.ts';

export function createFunctionsService(_ctx: StackContext): HttpService {
  return {
    async handle(_req, res) {
      sendJson(res, 501, { msg: 'Not implemented yet' });
    },
  };
}
