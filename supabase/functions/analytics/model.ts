// The analytics function's domain types: one event as the tracker describes it, what the function
// adds from the request, and what storage answers. The handler, the store and the tests use these.

/** A page's screen width class (the tracker's `w`, in CSS pixels). */
export type ScreenClass = 'mobile' | 'tablet' | 'laptop' | 'desktop';

/** The device class of a user agent. */
export type DeviceClass = 'desktop' | 'mobile' | 'tablet';

/** One event as the tracker sent it, validated and reduced to what is kept (payload.ts). */
export interface TrackedEvent {
  siteId: string;
  /** `pageview` or a custom event's name. */
  name: string;
  /** The page's host, checked against the site's domains and not stored. */
  host: string;
  /** The page's path (no query, no fragment). */
  path: string;
  /** The referrer's host; null when none, unreadable or the page's own site. */
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  screen: ScreenClass | null;
  /** From the browser's time zone (time-zone-countries.ts); null when it names none. */
  country: string | null;
  props: Record<string, string> | null;
}

/** What the user agent tells (user-agent.ts). */
export interface AgentFields {
  browser: string | null;
  os: string | null;
  device: DeviceClass | null;
}

/** Everything analytics_collect() receives. The IP and user agent are hashed there, not kept. */
export interface CollectInput extends TrackedEvent, AgentFields {
  ip: string;
  /** The client's rate-limit key (IPv6 by its /64: _shared/client-ip.ts). */
  clientKey: string;
  userAgent: string;
}

export type CollectResult =
  | { status: 'accepted'; entry: boolean }
  | { status: 'site_not_found' }
  | { status: 'foreign_host' }
  | { status: 'rate_limited'; retryAfter: number }
  /** The site's account stored its daily cap of events (limits.ts); counted again from midnight UTC. */
  | { status: 'account_limit'; retryAfter: number };
