// A booking page's CAPTCHA check: the page's secret (booking_captcha_secret(), the service role)
// and the provider's verdict on the visitor's token (_shared/captcha.ts). The challenge is solved
// on the booking page, which lives on the site (or its iframe does): a token earned on any other
// host is refused.
import { verifyCaptcha, type CaptchaVerdict } from '../_shared/captcha.ts';
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
  const expectedHostname = hostOf(deps.siteUrl);
  return async (input: CaptchaCheckInput): Promise<CaptchaVerdict> => {
    if (!input.token) return { ok: false, kind: 'missing', detail: 'no token' };
    let secret: string | null;
    try {
      secret = await deps.loadSecret(input.bookingFormId);
    } catch (err) {
      deps.log(`captcha secret lookup failed: ${(err as Error).message}`);
      return { ok: false, kind: 'unavailable', detail: 'secret lookup failed' };
    }
    if (!secret) return { ok: false, kind: 'misconfigured', detail: 'no secret stored' };
    const verdict = await verifyCaptcha(
      {
        provider: input.provider,
        secret,
        token: input.token,
        remoteIp: input.remoteIp,
        expectedHostname,
      },
      { verifyUrl: deps.verifyUrl, fetch: deps.fetch },
    );
    if (!verdict.ok && verdict.kind !== 'missing' && verdict.kind !== 'rejected')
      deps.log(
        `captcha check of booking page ${input.bookingFormId}: ${verdict.kind} (${verdict.detail})`,
      );
    return verdict;
  };
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
