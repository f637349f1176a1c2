// Confirmation e-mails of form target addresses, as the `_deliver` run handles them: before the
// due mail is sent, the database composes the mails of addresses waiting for confirmation (token,
// hash and queued job in one transaction), so they go out in the same run. Their link opens the
// site's confirm page, whose button spends the token: a mail scanner that merely fetches the link
// confirms nothing, and the site (not this function) renders the page.
import type { DeliveryReport } from './report.ts';

/** The site page that confirms an address (the site's router serves it under the same path). */
export const CONFIRM_ADDRESS_PATH = '/confirm-address';

/** The confirmation link without its token: `${siteUrl}/confirm-address?token=`. */
export function confirmationLinkPrefix(siteUrl: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${CONFIRM_ADDRESS_PATH}?token=`;
}

export interface ConfirmationStepDeps {
  /** SITE_URL; null when unset, and then no link can be made: requests wait until it is set. */
  siteUrl: string | null;
  /** Composes waiting confirmation mails with this link prefix; returns how many it queued. */
  compose(linkPrefix: string): Promise<number>;
  /** The ordinary delivery run. */
  deliver(): Promise<DeliveryReport>;
  log(message: string): void;
}

/**
 * The `_deliver` step: compose confirmations, then deliver everything due. A failure to compose is
 * logged and never keeps notifications from being sent.
 */
export function createDeliverStep(deps: ConfirmationStepDeps): () => Promise<DeliveryReport> {
  let warned = false;
  return async () => {
    if (deps.siteUrl) {
      try {
        await deps.compose(confirmationLinkPrefix(deps.siteUrl));
      } catch (err) {
        deps.log(`composing confirmation e-mails failed: ${(err as Error).message}`);
      }
    } else if (!warned) {
      warned = true;
      deps.log('SITE_URL is not set: confirmation e-mails of target addresses wait until it is.');
    }
    return deps.deliver();
  };
}
