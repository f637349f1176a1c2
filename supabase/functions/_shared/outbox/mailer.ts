// The one interface every mail provider implements, the provider choice from the environment,
// and the Resend HTTP provider (hosted Supabase blocks outgoing SMTP on ports 25 and 587).
import { DELIVERY } from '../limits.ts';
import { headerSafe } from '../header-safe.ts';

export interface OutgoingMail {
  /** Stable id of the delivery job: used as idempotency key and Message-ID. */
  id: string;
  /** MAIL_FROM: `name <address>` or a bare address. */
  from: string;
  /**
   * A display name that replaces MAIL_FROM's (an autoresponse's sender name); MAIL_FROM's address
   * is kept whatever the name. Null or unusable: MAIL_FROM as it is.
   */
  fromName?: string | null;
  to: string;
  subject: string;
  replyTo: string | null;
  text: string;
  html: string;
  /**
   * An iCalendar invitation (a booking's REQUEST, or its CANCEL) sent beside the text and HTML:
   * calendar clients offer to add, move or remove the event. Null or absent: a plain mail.
   */
  calendar?: MailCalendar | null;
  /**
   * A list mail (a newsletter): List-Unsubscribe with one-click (RFC 2369, RFC 8058) and List-ID
   * (RFC 2919). Checked before anything is sent: an unusable value fails the send with the reason.
   * Null or absent: no list headers.
   */
  list?: MailList | null;
}

interface MailList {
  /** Where one click unsubscribes (a POST, RFC 8058): https, or http to localhost in development. */
  unsubscribeUrl: string;
  /** A `mailto:` URI offered after the URL, for clients without one-click. */
  unsubscribeMailto?: string | null;
  /** `list-id.domain`, `<list-id.domain>` or `Name <list-id.domain>` (the name may be quoted). */
  listId?: string | null;
}

/** The iTIP method of an invitation: a new or moved event, or a withdrawn one. */
type CalendarMethod = 'REQUEST' | 'CANCEL';

export interface MailCalendar {
  method: CalendarMethod;
  /** The .ics text (VCALENDAR with its METHOD equal to `method`). */
  content: string;
}

/** The name under which the invitation is attached (the same for every provider). */
const CALENDAR_FILENAME = 'invite.ics';

/** The MIME type of an invitation, as clients expect it for the iTIP method. */
function calendarContentType(method: CalendarMethod): string {
  return `text/calendar; method=${method}; charset=UTF-8`;
}

/**
 * nodemailer's message options for `mail` (smtp-mailer.ts sends them). An invitation becomes
 * `icalEvent`, which nodemailer writes as a `text/calendar; method=…` alternative beside the text
 * and HTML and attaches once more as invite.ics, as calendar clients expect.
 */
export function smtpMessage(mail: OutgoingMail) {
  const fromName = usableFromName(mail.fromName);
  return {
    // nodemailer quotes or encodes (RFC 2047) the name; the address stays MAIL_FROM's.
    from: fromName ? { name: fromName, address: senderAddress(mail.from) } : mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    replyTo: mail.replyTo ?? undefined,
    messageId: `<delivery-${mail.id}@tinyback.tools>`,
    // Written as they are (`prepared`): nodemailer's `list` option writes a List-ID as an http URL
    // and has no List-Unsubscribe-Post, and its header encoding would turn a List-ID into one
    // encoded word. listHeaders() has checked the values, so they cannot break the header block.
    ...(mail.list
      ? {
          headers: Object.fromEntries(
            listHeaders(mail.list).map(([name, value]) => [name, { prepared: true, value }]),
          ),
        }
      : {}),
    ...(mail.calendar
      ? {
          icalEvent: {
            method: mail.calendar.method,
            content: mail.calendar.content,
            filename: CALENDAR_FILENAME,
          },
        }
      : {}),
  };
}

/** Base64 of the UTF-8 bytes of `text` (in slices: an invitation may be tens of kilobytes). */
function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x2000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  return btoa(binary);
}

/** Resend's attachment for an invitation: Resend has no calendar alternative, only attachments. */
function resendCalendarAttachment(calendar: MailCalendar) {
  return {
    filename: CALENDAR_FILENAME,
    content: base64Utf8(calendar.content),
    content_type: calendarContentType(calendar.method),
  };
}

// RFC 5322 §2.1.1: a line holds at most 998 characters. The list headers are written unfolded (no
// whitespace may be put inside an RFC 2369 URL's angle brackets, nor a URL split), so each must fit.
const MAX_HEADER_LINE = 998;
/** RFC 2919 §2: a list-id is at most 255 octets. */
const MAX_LIST_ID = 255;
// RFC 5322 dot-atom-text; RFC 2919 wants at least a label and a namespace, so one dot or more.
const LIST_ID = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?:\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)+$/;
/** Hosts an unsubscribe URL may reach over plain http: the local stack. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * Why `value` cannot stand between a list header's angle brackets, or null. Only printable ASCII:
 * whitespace, CR/LF and other controls would break the header or the URL; `<`, `>` and `,` end the
 * entry early (RFC 2369); non-ASCII belongs percent-encoded in a URL.
 */
function listUriProblem(value: string): string | null {
  const chars = Array.from(value);
  const at = chars.findIndex((char) => !/^[\x21-\x7e]$/.test(char) || '<>,'.includes(char));
  if (at < 0) return null;
  const code = chars[at].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `holds U+${code} at position ${at + 1} (only printable ASCII other than space, < > and , may stand in a list header)`;
}

function parsedUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function unsubscribeUrl(value: string): string {
  const problem = listUriProblem(value);
  if (problem) throw new Error(`The unsubscribe URL ${problem}.`);
  // Sent as given, so it must already be the absolute form (`https:host` would parse, too).
  const url = /^https?:\/\//i.test(value) ? parsedUrl(value) : null;
  const local = url?.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  if (!url || !(url.protocol === 'https:' || local))
    throw new Error(
      'The unsubscribe URL must be an https URL (RFC 8058 one-click; http only to localhost or 127.0.0.1).',
    );
  return value;
}

function unsubscribeMailto(value: string): string {
  const problem = listUriProblem(value);
  if (problem) throw new Error(`The unsubscribe mailto ${problem}.`);
  const address = /^mailto:([^?]*)/i.exec(value)?.[1];
  if (!address || !/^[^@]+@[^@]+$/.test(address) || parsedUrl(value)?.protocol !== 'mailto:')
    throw new Error('The unsubscribe mailto must be a mailto: URI with one address.');
  return value;
}

/** The List-ID value: `<list-id>`, after the list's name as a quoted string or encoded words. */
function listIdValue(value: string): string {
  const angled = /^\s*(?:(.*?)\s*)?<([^<>]*)>\s*$/s.exec(value);
  const id = (angled ? angled[2] : value).trim();
  if (id.length > MAX_LIST_ID || !LIST_ID.test(id))
    throw new Error(
      'The List-ID must be dot-atom text of at most 255 characters with a label and a domain, such as news.example.com (RFC 2919).',
    );
  const quoted = angled?.[1] ? /^"(.*)"$/s.exec(angled[1]) : null;
  const rawName = quoted ? quoted[1].replace(/\\(.)/gs, '$1') : angled?.[1];
  if (!rawName) return `<${id}>`;
  const name = usableFromName(rawName);
  if (!name)
    throw new Error(
      'The List-ID name must be 1–60 characters without control characters, @ or angle brackets.',
    );
  return `${encodeDisplayName(name)} <${id}>`;
}

/**
 * The list headers of a mail, in the order they are written, each on one line; throws a readable
 * error when a value is unusable, so that nothing half-formed is sent.
 */
function listHeaders(list: MailList): [name: string, value: string][] {
  const targets = [`<${unsubscribeUrl(list.unsubscribeUrl)}>`];
  // https first: RFC 2369 lists the preferred method first, and one-click needs the URL.
  if (list.unsubscribeMailto) targets.push(`<${unsubscribeMailto(list.unsubscribeMailto)}>`);
  const headers: [string, string][] = [
    ['List-Unsubscribe', targets.join(', ')],
    ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'],
  ];
  if (list.listId) headers.push(['List-ID', listIdValue(list.listId)]);
  for (const [name, value] of headers) {
    const length = name.length + 2 + value.length;
    if (length > MAX_HEADER_LINE)
      throw new Error(
        `The ${name} header would be a ${length}-character line; a mail header line holds at most ${MAX_HEADER_LINE} (RFC 5322), so shorten the unsubscribe URL.`,
      );
  }
  return headers;
}

export interface Mailer {
  /** Resolves once the provider accepted the message; rejects with a readable error otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  /** How many sends may run at once (default 1). */
  readonly parallel?: number;
}

export type MailConfig =
  | {
      provider: 'smtp';
      from: string;
      host: string;
      port: number;
      secure: boolean;
      user: string | null;
      pass: string | null;
    }
  | { provider: 'resend'; from: string; apiKey: string };

export const DEFAULT_FROM = 'tinyback <forms@tinyback.local>';

/** The address of a `name <address>` (or a bare address) sender. */
export function senderAddress(from: string): string {
  const angled = /<([^<>]*)>\s*$/.exec(from);
  return (angled ? angled[1] : from).trim();
}

// What a sender name never holds (email_deliveries_from_name in the database says the same):
// control and bidirectional-override characters, `@` and angle brackets.
const UNSAFE_NAME =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]/;

/** The display name if it may stand before the address (1–60 characters, nothing unsafe). */
export function usableFromName(name: string | null | undefined): string | null {
  if (!name) return null;
  const chars = Array.from(name);
  if (chars.length > 60 || !name.trim() || UNSAFE_NAME.test(name)) return null;
  return name;
}

/**
 * A display name as a header phrase: a quoted string when it is printable ASCII (quotes and
 * backslashes escaped), else RFC 2047 encoded words (UTF-8, base64), each at most 75 characters
 * and never splitting a character.
 */
export function encodeDisplayName(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/[\\"]/g, '\\$&')}"`;
  const encoder = new TextEncoder();
  const words: string[] = [];
  let chunk = '';
  const flush = () => {
    if (!chunk) return;
    words.push(`=?UTF-8?B?${btoa(String.fromCharCode(...encoder.encode(chunk)))}?=`);
    chunk = '';
  };
  for (const char of Array.from(name)) {
    // 45 bytes are 60 base64 characters: with `=?UTF-8?B?` and `?=`, 72 in all.
    if (encoder.encode(chunk + char).length > 45) flush();
    chunk += char;
  }
  flush();
  return words.join(' ');
}

/** The From header of a mail: MAIL_FROM, or its address after the mail's own display name. */
export function fromHeader(mail: Pick<OutgoingMail, 'from' | 'fromName'>): string {
  const name = usableFromName(mail.fromName);
  return name ? `${encodeDisplayName(name)} <${senderAddress(mail.from)}>` : mail.from;
}

/** Reads MAIL_PROVIDER and its settings; throws a readable error when the setup is incomplete. */
export function mailConfigFromEnv(env: (name: string) => string | undefined): MailConfig {
  const from = headerSafe(env('MAIL_FROM') || DEFAULT_FROM);
  const provider = (env('MAIL_PROVIDER') || 'smtp').toLowerCase();
  if (provider === 'resend') {
    const apiKey = env('RESEND_API_KEY');
    if (!apiKey) throw new Error('MAIL_PROVIDER=resend needs RESEND_API_KEY.');
    return { provider: 'resend', from, apiKey };
  }
  if (provider !== 'smtp')
    throw new Error(`Unknown MAIL_PROVIDER "${provider}" (use smtp or resend).`);
  const host = env('SMTP_HOST');
  if (!host) throw new Error('MAIL_PROVIDER=smtp needs SMTP_HOST.');
  const port = Number(env('SMTP_PORT') || 587);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new Error('SMTP_PORT is not a port number.');
  const secureSetting = env('SMTP_SECURE');
  return {
    provider: 'smtp',
    from,
    host,
    port,
    secure: secureSetting ? /^(1|true|yes)$/i.test(secureSetting) : port === 465,
    user: env('SMTP_USER') || null,
    pass: env('SMTP_PASS') || null,
  };
}

/** Resend's REST API: POST /emails with a bearer key; the job id makes retries idempotent. */
export function createResendMailer(
  config: { apiKey: string },
  fetchImpl: typeof fetch = fetch,
  timeoutMs: number = DELIVERY.sendTimeoutMs,
): Mailer {
  return {
    async send(mail) {
      const headers = mail.list ? Object.fromEntries(listHeaders(mail.list)) : null;
      const response = await fetchImpl('https://api.resend.com/emails', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${config.apiKey}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': `delivery-${mail.id}`,
        },
        body: JSON.stringify({
          from: fromHeader(mail),
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.replyTo ? { reply_to: mail.replyTo } : {}),
          ...(mail.calendar ? { attachments: [resendCalendarAttachment(mail.calendar)] } : {}),
          ...(headers ? { headers } : {}),
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        const detail = (await response.text().catch(() => '')).slice(0, 300);
        throw new Error(`Resend answered ${response.status}: ${detail}`);
      }
      await response.body?.cancel().catch(() => undefined);
    },
  };
}
