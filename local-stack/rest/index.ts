// PostgREST stand-in mounted at /rest/v1.
import type { HttpService, StackContext } from '../context.ts';
import { sendJson } from '../http.ts';

export function createRestService(_ctx: StackContext): HttpService {
  return {
    async handle(_req, res) {
      sendJson(res, 501, { code: 'PGRST000', message: 'Not implemented yet', details: null, hint: null });
    },
  };
}
