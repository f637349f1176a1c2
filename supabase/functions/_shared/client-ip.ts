// Who is posting: the client's address as the platform saw it — never a value the client wrote —
// and the key a rate limit counts it under (IPv6 clients by their /64 network). Pure TypeScript,
// shared by the functions that throttle anonymous callers.
//
// Supabase's gateway appends the address of whoever connected to it to X-Forwarded-For; every
// entry to the left of that one arrived with the request and may be forged. So the right-most
// entry is the client — unless the request came through the site owner's own rewrite of
// `/api/forms` (a proxy), whose address the gateway then appended. Such a proxy proves itself
// with a secret header shared with the function (FORMS_PROXY_SECRET) and appends its own client's
// address; only then is the entry left of the gateway's taken.
import { sameText } from './constant-time.ts';

/** The header the owner's proxy sets to FORMS_PROXY_SECRET on every request it forwards. */
export const PROXY_SECRET_HEADER = 'X-Tinyback-Proxy-Secret';

/** Shorter secrets are refused at start: a guessable one would let anyone choose their address. */
export const MIN_PROXY_SECRET_LENGTH = 32;

export interface ClientIpPolicy {
  /** FORMS_PROXY_SECRET; unset: no proxy is trusted and every request counts as a direct one. */
  proxySecret?: string | null;
}

/** Where a client's address was read from, for tests and logs. */
export type ClientIpSource = 'gateway' | 'proxy';

/**
 * The client's address, normalised (see normalizeIp), or `unknown` when the trusted entry is
 * missing or is not an IP address.
 */
export function clientIp(headers: Headers, policy: ClientIpPolicy = {}): string {
  return clientIpWithSource(headers, policy).ip;
}

export function clientIpWithSource(
  headers: Headers,
  policy: ClientIpPolicy = {},
): { ip: string; source: ClientIpSource } {
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  // The gateway's entry, and left of it the one a proven proxy appended.
  const viaProxy = entries.length >= 2 && fromOwnProxy(headers, policy);
  const entry = entries[entries.length - (viaProxy ? 2 : 1)];
  return { ip: (entry && normalizeIp(entry)) || 'unknown', source: viaProxy ? 'proxy' : 'gateway' };
}

/** True when the request carries the configured proxy secret (compared in constant time). */
function fromOwnProxy(headers: Headers, policy: ClientIpPolicy): boolean {
  const secret = policy.proxySecret ?? '';
  if (secret.length < MIN_PROXY_SECRET_LENGTH) return false;
  const sent = headers.get(PROXY_SECRET_HEADER);
  return sent !== null && sameText(sent.trim(), secret);
}

/**
 * The key a rate limit counts a client under: an IPv4 address as is, an IPv6 address by its /64
 * prefix (one subscriber line or host usually holds a whole /64, so counting single addresses
 * would let one client use 2^64 of them).
 */
export function rateLimitKey(ip: string): string {
  const v6 = ip.includes(':') ? parseIpv6(ip) : null;
  if (!v6) return ip;
  return `${v6
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * One spelling per address: IPv4 in plain decimal; IPv6 lower-case with all eight groups written
 * out (so `2001:DB8::1` and `2001:db8:0::1` agree); an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`)
 * as the IPv4 address it is. Brackets, a port and an IPv6 zone are dropped. Null when `raw` is
 * not an IP address.
 */
export function normalizeIp(raw: string): string | null {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else {
    const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
    if (v4WithPort) text = v4WithPort[1];
  }
  const v4 = parseIpv4(text);
  if (v4) return v4.join('.');
  const v6 = parseIpv6(text.replace(/%[\w.-]+$/, ''));
  if (!v6) return null;
  if (v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff) {
    return [v6[6] >> 8, v6[6] & 0xff, v6[7] >> 8, v6[7] & 0xff].join('.');
  }
  return v6.map((g) => g.toString(16)).join(':');
}

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted IPv4 part). */
function parseIpv6(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string, last: boolean): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (last && i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
        out.push(parseInt(piece, 16));
      } else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0], halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1], true) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}
