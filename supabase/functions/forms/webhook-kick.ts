// `POST /forms/_webhook {"id": "<delivery id>"}`: sends one freshly queued webhook delivery now,
// so the dashboard's "Send test event" and "Send again" answer in seconds rather than at the next
// scheduled run. It needs no key: only a delivery that is due and has never been tried (just
// queued by its owner through an RPC) is claimed, which the scheduled run would send anyway — a
// stranger can make nothing go out that was not already on its way.
import { readLimited } from '../_shared/read-limited.ts';
import { isUuid } from '../_shared/uuid.ts';
import { kickAnswer, kickRoute } from './kick-route.ts';

const WEBHOOK_KICK = kickRoute('_webhook');

/** The route's answer, or null when `req` is for another route of the function. */
export function webhookKickRoute(
  req: Request,
  sendFresh: (deliveryId: string) => Promise<void>,
): Promise<Response> | null {
  return WEBHOOK_KICK(req, async () => {
    let id: unknown;
    try {
      const body = await readLimited(req, 1024);
      id = body ? (JSON.parse(new TextDecoder().decode(body)) as { id?: unknown }).id : undefined;
    } catch {
      id = undefined;
    }
    if (typeof id !== 'string' || !isUuid(id))
      return kickAnswer(400, { error: 'invalid_body', message: 'Send {"id": "<delivery id>"}.' });
    await sendFresh(id.toLowerCase());
    return kickAnswer(200, { ok: true });
  });
}
