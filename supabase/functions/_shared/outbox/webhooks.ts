// Webhooks, the pure part: the limits and retry window, the body of each event in the three
// formats (tinyback's JSON, Slack, Discord), the signature header, and which addresses a webhook
// may reach. No Deno or Node API, so the site's docs and the unit tests use it as it runs.

/** Webhook delivery limits; see docs/SECURITY.md (SSRF) and the /docs page. */
export const WEBHOOKS = {
  /** First retry delay in seconds; doubles after each failed attempt. */
  baseDelaySeconds: 30,
  /** Largest delay between two attempts, in seconds. */
  maxDelaySeconds: 2 * 60 * 60,
  /** Attempts go on for at least this long after a round starts; then the delivery fails. */
  retryWindowSeconds: 24 * 60 * 60,
  /** Longest wait for one receiver (connect, answer and body), in milliseconds. */
  timeoutMs: 10_000,
  /** Bytes of a receiver's answer read at most; the rest is dropped unread. */
  maxResponseBytes: 16 * 1024,
  /** Characters of the answer kept in the delivery log. */
  excerptChars: 500,
  /** How long a worker holds a claimed delivery before another may take it, in seconds. */
  leaseSeconds: 60,
  /** How long the signed URL of a file in a payload works, in seconds (signed at each attempt). */
  fileUrlSeconds: 60 * 60,
  /** Deliveries one `_deliver` run sends at most. */
  batchSize: 20,
  /** A receiver may reject deliveries whose signed time is older than this, in seconds. */
  toleranceSeconds: 300,
} as const;

export const SIGNATURE_HEADER = 'X-Tinyback-Signature';
export const EVENT_HEADER = 'X-Tinyback-Event';
export const DELIVERY_HEADER = 'X-Tinyback-Delivery';

export type WebhookFormat = 'json' | 'slack' | 'discord';
export type WebhookEvent = 'entry.created' | 'test';

/** A file stored with the entry, as the payload carries it: metadata and an expiring URL. */
export interface WebhookFile {
  name: string;
  size: number;
  kind: string;
  mime_type: string;
  /** A signed download URL (null when it could not be signed), valid until `expires_at`. */
  url: string | null;
  expires_at: string | null;
}

export interface WebhookEntry {
  id: string;
  name: string | null;
  email: string | null;
  message: string | null;
  data: Record<string, unknown>;
  is_spam: boolean;
  created_at: string;
  /** The entry's files (uploads); absent or empty when it has none. */
  files?: WebhookFile[];
}

export interface WebhookEventInput {
  event: WebhookEvent;
  deliveryId: string;
  form: { id: string; name: string };
  /** Null for a test event: a sample entry is sent instead. */
  entry: WebhookEntry | null;
  now: Date;
}

/**
 * Seconds before the next attempt after `attempts` failed ones, or null once the round is older
 * than the retry window: the delivery is then marked failed.
 */
export function webhookRetryDelaySeconds(
  attempts: number,
  roundStartedAt: Date,
  now: Date,
  policy: typeof WEBHOOKS = WEBHOOKS,
): number | null {
  const age = (now.getTime() - roundStartedAt.getTime()) / 1000;
  if (age >= policy.retryWindowSeconds) return null;
  const delay = policy.baseDelaySeconds * 2 ** Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(delay, policy.maxDelaySeconds);
}

function sampleEntry(now: Date): WebhookEntry {
  return {
    id: '00000000-0000-0000-0000-000000000000',
    name: 'Test Sender',
    email: 'sender@example.com',
    message: 'This is a test event from tinyback.',
    data: {},
    is_spam: false,
    created_at: now.toISOString(),
  };
}

/** tinyback's own JSON body (the `json` format). */
function eventPayload(input: WebhookEventInput) {
  return {
    event: input.event,
    delivery_id: input.deliveryId,
    sent_at: input.now.toISOString(),
    form: { id: input.form.id, name: input.form.name },
    entry: input.entry ?? sampleEntry(input.now),
  };
}

/** Slack's mrkdwn needs only these three escaped (https://api.slack.com/reference/surfaces/formatting). */
const slackEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Discord markdown and mentions are neutralised; allowed_mentions below also stops pings. */
const discordEscape = (s: string) => s.replace(/[\\*_~`|>#@[\]()-]/g, (c) => `\\${c}`);

function summaryLines(entry: WebhookEntry): [string, string][] {
  const lines: [string, string][] = [];
  if (entry.name) lines.push(['Name', entry.name]);
  if (entry.email) lines.push(['E-mail', entry.email]);
  if (entry.message) lines.push(['Message', entry.message]);
  for (const [key, value] of Object.entries(entry.data ?? {})) {
    lines.push([key, Array.isArray(value) ? value.join(', ') : String(value)]);
  }
  // Names only: a chat message outlives any signed URL.
  if (entry.files?.length) lines.push(['Files', entry.files.map((file) => file.name).join(', ')]);
  return lines;
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The request body for a webhook in `format`, as a string (it is signed byte for byte). */
export function webhookBody(format: WebhookFormat, input: WebhookEventInput): string {
  if (format === 'json') return JSON.stringify(eventPayload(input));
  const entry = input.entry ?? sampleEntry(input.now);
  const test = input.event === 'test' ? ' (test event)' : '';
  const spam = entry.is_spam ? ' [spam]' : '';
  if (format === 'slack') {
    const head = `New message on *${slackEscape(input.form.name)}*${test}${spam}`;
    const body = summaryLines(entry)
      .map(([k, v]) => `*${slackEscape(k)}:* ${slackEscape(v)}`)
      .join('\n');
    return JSON.stringify({ text: clip(`${head}\n${body}`, 3000) });
  }
  const head = `New message on **${discordEscape(input.form.name)}**${test}${spam}`;
  const body = summaryLines(entry)
    .map(([k, v]) => `**${discordEscape(k)}:** ${discordEscape(v)}`)
    .join('\n');
  // Discord refuses content over 2000 characters.
  return JSON.stringify({
    content: clip(`${head}\n${body}`, 2000),
    allowed_mentions: { parse: [] },
  });
}

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the webhook's secret>`. */
export async function signatureHeader(secret: string, body: string, now: Date): Promise<string> {
  const t = Math.floor(now.getTime() / 1000);
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${t}.${body}`));
  return `t=${t},v1=${hex(mac)}`;
}

// ------------------------------------------------------------------------------------------------
// Which addresses a webhook may reach: public unicast only (the same list as the migration's
// webhook_address_is_public()).
// ------------------------------------------------------------------------------------------------

const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const BLOCKED_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

function parseV4(ip: string): bigint | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = (n << 8n) | BigInt(Number(p));
  }
  return n;
}

function parseV6(ip: string): bigint | null {
  let s = ip.toLowerCase();
  if (s.includes('%')) s = s.slice(0, s.indexOf('%'));
  // An embedded IPv4 tail becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const n = parseV4(v4[1]);
    if (n === null) return null;
    s = `${s.slice(0, v4.index)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

const inRange = (n: bigint, base: bigint, bits: number, width: number) =>
  n >> BigInt(width - bits) === base >> BigInt(width - bits);

/** True for a public unicast IPv4 or IPv6 address; false for anything else or unparsable. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '');
  const v4 = parseV4(bare);
  if (v4 !== null) return !BLOCKED_V4.some(([b, bits]) => inRange(v4, parseV4(b)!, bits, 32));
  const v6 = parseV6(bare);
  if (v6 === null) return false;
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and IPv4-compatible forms
  // are judged as the IPv4 address.
  if (v6 >> 32n === 0xffffn || v6 >> 32n === 0xffff0000n || (v6 >> 32n === 0n && v6 > 1n)) {
    const n = v6 & 0xffffffffn;
    return !BLOCKED_V4.some(([b, bits]) => inRange(n, parseV4(b)!, bits, 32));
  }
  return !BLOCKED_V6.some(([b, bits]) => inRange(v6, parseV6(b)!, bits, 128));
}

/** Host names that never belong to a public service. */
function isLocalHostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return (
    h === 'localhost' ||
    /\.(localhost|local|internal|localdomain|home\.arpa)$/.test(h) ||
    (!h.includes('.') && !h.includes(':'))
  );
}

/**
 * Why `url` may not be a webhook target, judged from the URL alone, or null. (The database says
 * the same at creation; the sender also checks every resolved address.)
 */
export function webhookUrlProblem(url: string, allowLocal: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'Enter a full URL starting with https://.';
  }
  if (u.username || u.password) return 'The URL must not contain a user name or password.';
  if (u.protocol !== 'https:' && !(allowLocal && u.protocol === 'http:'))
    return 'Webhook URLs must start with https://.';
  if (allowLocal) return null;
  // The URL parser has already turned numeric forms (2130706433, 0x7f.1) into dotted quads.
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const literal = parseV4(host) !== null || host.includes(':');
  if (literal && !isPublicAddress(host))
    return 'Webhooks cannot target private, loopback, link-local or metadata addresses.';
  if (!literal && isLocalHostName(host))
    return 'Webhooks cannot target local or internal host names.';
  return null;
}
