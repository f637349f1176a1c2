// `POST /forms/_campaigns`: runs the campaign part of the scheduled `_deliver` run now, so that a
// campaign the owner just started (or resumed) leaves within seconds rather than at the next
// scheduled run (up to a minute on Supabase's pg_cron). The dashboard calls it after "Send now"
// and "Resume". It needs no key: it takes no input (whatever is sent is not read) and does exactly
// what the next scheduled run would do — campaign_claim() leases only messages of campaigns their
// owners started, within the same ceilings (each account's messages a second and a day, the
// new-account ceiling, leases, exactly once) — so a stranger calling it can only make due mail
// leave earlier, never more of it nor to anyone else. Runs are coalesced per worker: a call while
// one runs adds at most one more round after it, which ends as soon as nothing is due.
import { readLimited } from '../_shared/read-limited.ts';
import { functionRoute } from '../_shared/route.ts';

const CAMPAIGN_KICK_ROUTE = '_campaigns';
const ROUTE = functionRoute('forms', `/${CAMPAIGN_KICK_ROUTE}`);

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
export function campaignKickRoute(
  req: Request,
  /** Starts (or joins) a campaign run in the background; must never throw. */
  kick: () => void,
): Promise<Response> | null {
  if (!ROUTE.test({ pathname: new URL(req.url).pathname })) return null;
  return (async () => {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
    if (req.method !== 'POST') return answer(405, { error: 'method_not_allowed' });
    // Whatever was sent is not read (at most a little of it, so the connection stays usable).
    await readLimited(req, 1024).catch(() => null);
    kick();
    return answer(202, { ok: true });
  })();
}
