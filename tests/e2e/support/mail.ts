// Reading what the app e-mailed from the test stack's mail catcher.
import { isTo, waitForMail, type CaughtMail } from '../../support/mail';
import { testStack } from '../../support/stack.ts';

export type { CaughtMail };

/** Waits for a mail to `address` whose subject matches; mails from earlier tests never match. */
export function waitForMailTo(
  address: string,
  subject: RegExp = /./,
  timeoutMs = 20_000,
): Promise<CaughtMail> {
  return waitForMail(
    testStack().mailWebUrl,
    (mail) => isTo(mail, address) && subject.test(mail.subject),
    timeoutMs,
  );
}

/** Every http(s) link of a mail, from its HTML (decoded) or else its text. */
export function linksIn(mail: CaughtMail): string[] {
  const fromHtml = [...(mail.html ?? '').matchAll(/href\s*=\s*"([^"]+)"/gi)].map((m) =>
    m[1]!.replace(/&amp;/g, '&'),
  );
  const fromText = [...(mail.text ?? '').matchAll(/https?:\/\/[^\s<>"')\]]+/g)].map((m) => m[0]);
  return [...new Set([...fromHtml, ...fromText])].filter((link) => /^https?:\/\//.test(link));
}
