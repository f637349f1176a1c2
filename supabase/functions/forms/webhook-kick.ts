// `POST /forms/_webhook {"id": "<delivery id>"}`: sends one freshly queued webhook delivery now,
// so the dashboard's "Send test event" and "Send again" answer in seconds rather than at the next
// scheduled run. It needs no key: only a delivery that is due and has never been tried (just
// queued by its owner through an RPC) is claimed, which the scheduled run would send anyway — a
// stranger can make nothing go out that was not already on its way.
import { readLimited } from '../_shared/read-limited.ts';
import { functionRoute } from '../_shared/route.ts';
import { isUuid } from '../_shared/uuid.ts';

const KICK_ROUTE = '_webhook';
const ROUTE = functionRoute('forms', `/${KICK_ROUTE}`);

// Called from the site with supabase-js (its own headers) and no cookies.
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-max-age': '600',
};

const answer = (status: number, body: Record<string, unknown>) =>
  Response.json(body, { status, headers: CORS });

/** The route's answer, or null when `req` is for another route of the function. */
export function webhookKickRoute(
  req: Request,
  sendFresh: (deliveryId: string) => Promise<void>,
): Promise<Response> | null {
  if (!ROUTE.test({ pathname: new URL(req.url).pathname })) return null;
  return (async () => {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
    if (req.method !== 'POST') return answer(405, { error: 'method_not_allowed' });
    let id: unknown;
    try {
      const body = await readLimited(req, 1024);
      id = body ? (JSON.parse(new TextDecoder().decode(body)) as { id?: unknown }).id : undefined;
    } catch {
      id = undefined;
    }
    if (typeof id !== 'string' || !isUuid(id))
      return answer(400, { error: 'invalid_body', message: 'Send {"id": "<delivery id>"}.' });
    await sendFresh(id.toLowerCase());
    return answer(200, { ok: true });
  })();
}
