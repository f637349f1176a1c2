// `POST /forms/_campaigns`: runs the campaign part of the scheduled `_deliver` run now, so that a
// campaign the owner just started (or resumed) leaves within seconds rather than at the next
// scheduled run (up to a minute on Supabase's pg_cron). The dashboard calls it after "Send now"
// and "Resume". It needs no key: it takes no input (whatever is sent is not read) and does exactly
// what the next scheduled run would do — campaign_claim() leases only messages of campaigns their
// owners started, within the same ceilings (each account's messages a second and a day, the
// new-account ceiling, leases, exactly once) — so a stranger calling it can only make due mail
// leave earlier, never more of it nor to anyone else. Runs are coalesced per worker: a call while
// one runs adds at most one more round after it, which ends as soon as nothing is due.
import { inputlessKick, kickRoute } from './kick-route.ts';

const CAMPAIGN_KICK = kickRoute('_campaigns');

/** The route's answer, or null when `req` is for another route of the function. */
export function campaignKickRoute(
  req: Request,
  /** Starts (or joins) a campaign run in the background; must never throw. */
  kick: () => void,
): Promise<Response> | null {
  return CAMPAIGN_KICK(req, inputlessKick(kick));
}
