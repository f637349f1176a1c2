// The `forms` function's kick routes (`_mail`, `_campaigns`, `_webhook`): the dashboard calls them
// with supabase-js right after an owner's action, so due work leaves in seconds rather than at the
// next scheduled run. None needs a key, because none can make anything go out that the scheduled
// run would not send anyway (each route's module says why); they share their answers here.
import { readLimited } from '../_shared/read-limited.ts';
import { functionRoute } from '../_shared/route.ts';

// Called from the site with supabase-js (its own headers) and no cookies.
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-max-age': '600',
};

export const kickAnswer = (status: number, body: Record<string, unknown>) =>
  Response.json(body, { status, headers: CORS });

/**
 * Kick route `name` (e.g. '_mail'): a function giving its answer for a request, or null when the
 * request is for another route of the function (the preflight, 405 for other methods, else
 * `handle`'s answer). Made once per route, at module load: every request to the function passes
 * through each kick route's check, and building a URLPattern costs about 0.2 ms, where testing one
 * costs a few microseconds.
 */
export function kickRoute(name: string) {
  const route = functionRoute('forms', `/${name}`);
  return (req: Request, handle: (req: Request) => Promise<Response>): Promise<Response> | null => {
    // Most requests are posts to a form: a URL without the name is no kick, and is told at once.
    if (!req.url.includes(name) || !route.test({ pathname: new URL(req.url).pathname }))
      return null;
    if (req.method === 'OPTIONS')
      return Promise.resolve(new Response(null, { status: 204, headers: CORS }));
    if (req.method !== 'POST')
      return Promise.resolve(kickAnswer(405, { error: 'method_not_allowed' }));
    return handle(req);
  };
}

/** A kick that takes no input: whatever was sent is not read, `kick` starts the work (never throws). */
export function inputlessKick(kick: () => void) {
  return async (req: Request) => {
    // At most a little of the body is read, so the connection stays usable.
    await readLimited(req, 1024).catch(() => null);
    kick();
    return kickAnswer(202, { ok: true });
  };
}
