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

/**
 * What a reader of the mail sees as text: its plain-text part, or (a mail that is HTML alone, as
 * Supabase Auth sends its templated mails) its HTML with the tags taken out and the entities
 * read, so a link or a code is found the same way in either.
 */
export function readableText(mail: Pick<CaughtMail, 'text' | 'html'>): string {
  if (mail.text) return mail.text;
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return (mail.html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return entities[name.toLowerCase()] ?? whole;
    });
}

/**
 * The HTML part exactly as it was sent (the catcher's `html` is its own cleaned copy): read from
 * the message's source, its transfer encoding undone, CRLF line ends read as LF and the line ends
 * after its last line left out.
 */
export async function sentHtmlOf(
  mailWebUrl: string,
  mail: Pick<CaughtMail, 'id'>,
): Promise<string> {
  const html = partsOf(await mailSource(mailWebUrl, mail)).find(
    (part) => part.type === 'text/html',
  );
  if (!html) throw new Error(`no HTML part in the source of mail ${mail.id}`);
  return html.body.trimEnd();
}

export interface MailPart {
  type: string;
  headers: string;
  body: string;
}

/** Splits a header block from its body (CRLF read as LF). */
function split(text: string): [string, string] {
  const at = text.indexOf('\n\n');
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 2)];
}

/** The body with its transfer encoding undone, as UTF-8 text. */
function decode(headers: string, body: string): string {
  const text = body.replace(/\n$/, '');
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers))
    return Buffer.from(
      text
        .replace(/=\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  return text;
}

/** Every part of a MIME message, multipart containers included, in order. */
export function partsOf(source: string): MailPart[] {
  const [rawHeaders, body] = split(source);
  const headers = rawHeaders.replace(/\n[ \t]+/g, ' ');
  const type = (/^content-type:\s*([^;\n]+)/im.exec(headers)?.[1] ?? 'text/plain').toLowerCase();
  const boundary = /^content-type:[^\n]*boundary="?([^";\n]+)"?/im.exec(headers)?.[1];
  if (!type.startsWith('multipart/') || !boundary)
    return [{ type, headers, body: decode(headers, body) }];
  const children = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((part) => partsOf(part.replace(/^\n/, '')));
  return [{ type, headers, body: '' }, ...children];
}

/** A caught message's raw source, line ends as LF. */
export async function mailSource(
  mailWebUrl: string,
  mail: Pick<CaughtMail, 'id'>,
): Promise<string> {
  const res = await fetch(`${mailWebUrl}/email/${mail.id}/source`);
  if (!res.ok)
    throw new Error(`mail catcher answered ${res.status} to GET /email/${mail.id}/source`);
  return (await res.text()).replace(/\r\n/g, '\n');
}
