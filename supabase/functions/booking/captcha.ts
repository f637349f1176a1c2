// A booking page's CAPTCHA check: the page's secret (booking_captcha_secret(), the service role)
// and the provider's verdict on the visitor's token (_shared/captcha.ts). The challenge is solved
// on the booking page, which lives on the site (or its iframe does): a token earned on any other
// host is refused.
import { checkWithStoredSecret, type CaptchaVerdict } from '../_shared/captcha.ts';
import type { CaptchaCheck, CaptchaCheckInput } from './model.ts';

export function createBookingCaptchaCheck(deps: {
  loadSecret(bookingFormId: string): Promise<string | null>;
  /** CAPTCHA_VERIFY_URL_OVERRIDE (tests only); null: the provider's own siteverify. */
  verifyUrl: string | null;
  /** SITE_URL, whose host the booking page is on; null: the host is not compared. */
  siteUrl: string | null;
  log(message: string): void;
  fetch?: typeof fetch;
}): CaptchaCheck {
  return (input: CaptchaCheckInput): Promise<CaptchaVerdict> =>
    checkWithStoredSecret(
      {
        provider: input.provider,
        token: input.token,
        remoteIp: input.remoteIp,
        expectedOrigin: deps.siteUrl,
        subject: `booking page ${input.bookingFormId}`,
      },
      {
        loadSecret: () => deps.loadSecret(input.bookingFormId),
        log: deps.log,
        verifyUrl: deps.verifyUrl,
        fetch: deps.fetch,
      },
    );
}
