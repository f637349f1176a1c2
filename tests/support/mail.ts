// Test helpers for the local mail catcher: list, wait for and clear messages through maildev's
// JSON API (the same API its web UI uses).

/** The fields of a caught message that tests look at (maildev returns more). */
export interface CaughtMail {
  id: string;
  subject: string;
  text?: string;
  html?: string;
  to: { address: string; name: string }[];
  from: { address: string; name: string }[];
  time: string;
}

export async function listMail(mailWebUrl: string): Promise<CaughtMail[]> {
  const res = await fetch(`${mailWebUrl}/email`);
  if (!res.ok) throw new Error(`mail catcher answered ${res.status} to GET /email`);
  return (await res.json()) as CaughtMail[];
}

/** Messages addressed to `address` (case-insensitive). */
export function isTo(mail: CaughtMail, address: string): boolean {
  return mail.to.some((to) => to.address.toLowerCase() === address.toLowerCase());
}

/** Polls the catcher until a message matches `predicate`; rejects after `timeoutMs`. */
export async function waitForMail(
  mailWebUrl: string,
  predicate: (mail: CaughtMail) => boolean,
  timeoutMs = 10_000,
): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await listMail(mailWebUrl)).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching mail arrived within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function clearMail(mailWebUrl: string): Promise<void> {
  const res = await fetch(`${mailWebUrl}/email/all`, { method: 'DELETE' });
  if (!res.ok) throw new Error(`mail catcher answered ${res.status} to DELETE /email/all`);
}
