// `POST /forms/_mail`: runs the e-mail part of the scheduled `_deliver` run now — compose the
// confirmation mails of target addresses waiting for one, then send the e-mails that are due — so
// that a new form's confirmation link leaves within seconds rather than at the next scheduled run
// (up to a minute on Supabase's pg_cron). The dashboard calls it after creating a form, changing
// its target, "Resend confirmation" and "Send the messages received meanwhile". It needs no key:
// it takes no argument and does exactly what the next scheduled run would do, within the same
// caps (one confirmation mail per account and address a minute, the daily caps, leases), so a
// stranger calling it can only make due mail leave earlier. Runs are coalesced per worker: a call
// while one runs adds at most one more round.
import { readLimited } from '../_shared/read-limited.ts';
import { functionRoute } from '../_shared/route.ts';

const MAIL_KICK_ROUTE = '_mail';
const ROUTE = functionRoute('forms', `/${MAIL_KICK_ROUTE}`);

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
export function mailKickRoute(
  req: Request,
  /** Starts (or joins) a run in the background; must never throw. */
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
