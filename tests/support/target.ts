// What the integration suites run against: the local stack (the default), or a deployment under
// `npm run verify`. A check that needs something a deployment does not offer (the local mail
// catcher, the stack's internals, a secret the user did not give) skips itself through these
// helpers, and the reason appears beside the skipped test in the report.
import { type TestContext } from 'vitest';
import { testTarget } from './stack.ts';

export const target = testTarget();
export const remote = target.kind === 'remote';

/** Skips the running test on a deployment, saying why it only runs on the local stack. */
export function localOnly(ctx: TestContext, reason: string): void {
  if (remote) ctx.skip(`local stack only: ${reason}`);
}

/** Skips the running test when no mail catcher receives the functions' e-mails. */
export function needsMail(ctx: TestContext): void {
  if (!target.mail) {
    ctx.skip('reads e-mails: set VERIFY_MAIL_URL to a catcher that receives your functions’ mail');
  }
}

/** The forms function's SITE_URL; skips the running test when it is not known. */
export function needsSiteUrl(ctx: TestContext): string {
  if (target.siteUrl === null) {
    ctx.skip("checks redirects and links to your site: set SITE_URL to the function's SITE_URL");
  }
  return target.siteUrl!;
}

/** The forms function's FORMS_PROXY_SECRET; skips the running test when it is not known. */
export function needsProxySecret(ctx: TestContext): string {
  if (target.proxySecret === null) {
    ctx.skip("plays your /api/forms proxy: set FORMS_PROXY_SECRET to the function's secret");
  }
  return target.proxySecret!;
}

/** The project's JWT secret; skips the running test when it is not known. */
export function needsJwtSecret(ctx: TestContext): string {
  if (target.jwtSecret === null) {
    ctx.skip("mints its own tokens: set SUPABASE_JWT_SECRET to the project's legacy JWT secret");
  }
  return target.jwtSecret!;
}
