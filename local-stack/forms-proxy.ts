// The owner's `/api/forms` rewrite as the README tells a production host to set it up, played by
// the local gateway and by Vite's dev server, so development counts clients the way production
// does: the proxy appends its client's address to X-Forwarded-For and proves itself to the
// `forms` function with the shared secret (FORMS_PROXY_SECRET); the gateway then appends the
// proxy's own address, as Supabase's does.
import type { IncomingMessage } from 'node:http';

/** The header the function checks (supabase/functions/_shared/client-ip.ts). */
export const PROXY_SECRET_HEADER = 'x-tinyback-proxy-secret';

/** The stack's FORMS_PROXY_SECRET: public like the demo keys, never for a deployment. */
export const LOCAL_FORMS_PROXY_SECRET = 'local-forms-proxy-secret-for-development-only';

/** Does to `req` what a correctly configured rewrite does before forwarding it. */
export function actAsFormsProxy(req: IncomingMessage, secret = LOCAL_FORMS_PROXY_SECRET): void {
  const client = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  req.headers['x-forwarded-for'] = prior ? `${prior}, ${client}` : client;
  req.headers[PROXY_SECRET_HEADER] = secret;
}
