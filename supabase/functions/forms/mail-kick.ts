// `POST /forms/_mail`: runs the e-mail part of the scheduled `_deliver` run now — compose the
// confirmation mails of target addresses waiting for one, then send the e-mails that are due — so
// that a new form's confirmation link leaves within seconds rather than at the next scheduled run
// (up to a minute on Supabase's pg_cron). The dashboard calls it after creating a form, changing
// its target, "Resend confirmation" and "Send the messages received meanwhile". It needs no key:
// it takes no argument and does exactly what the next scheduled run would do, within the same
// caps (one confirmation mail per account and address a minute, the daily caps, leases), so a
// stranger calling it can only make due mail leave earlier. Runs are coalesced per worker: a call
// while one runs adds at most one more round.
import { inputlessKick, kickRoute } from './kick-route.ts';

const MAIL_KICK = kickRoute('_mail');

/** The route's answer, or null when `req` is for another route of the function. */
export function mailKickRoute(
  req: Request,
  /** Starts (or joins) a run in the background; must never throw. */
  kick: () => void,
): Promise<Response> | null {
  return MAIL_KICK(req, inputlessKick(kick));
}
