// The database's types as the site uses them: the generated `Database` (database.types.ts, written
// by `npm run db:types` from the migrations) with what the generator cannot read from the catalogue
// added on top, as Supabase's guide to generated types does with `MergeDeep`:
// - the values a check constraint allows in a text column, as a union instead of `string`;
// - insert columns a trigger fills (`user_id` from the form, a webhook's `secret`), as optional;
// - RPC arguments that may be null, and the shape of a jsonb an RPC answers.
// Every feature reads its rows through `Tables<'…'>` and its RPCs through `Functions<'…'>` from
// here: one definition per table, shared by every feature that reads it. A refinement that names
// a table, column or function the migrations no longer have fails the type check (KnownPaths).
import type { Database as Generated } from './database.types';

export type CaptchaProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';
type RetentionMode = 'days' | 'forward_only';
export type WebhookFormat = 'json' | 'slack' | 'discord';
export type ApiKeyScope = 'read_only' | 'read_write';
/** Where a queued e-mail or webhook delivery stands. */
type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'failed';
/** Why the endpoint queued no notification e-mail for a message. */
export type NotificationSkipped = 'off' | 'unverified' | 'hourly_limit' | 'daily_limit';

/** A kind of uploaded file (the endpoint's kinds.ts; checked on form_uploads and entry_files). */
export type FileKind = 'image' | 'pdf' | 'office' | 'text' | 'archive';

/** A breakdown of the analytics stats, which is also a key of their filters (`p_filters`). */
export type AnalyticsDimension =
  | 'page'
  | 'entry_page'
  | 'referrer'
  | 'utm_source'
  | 'utm_medium'
  | 'utm_campaign'
  | 'country'
  | 'browser'
  | 'os'
  | 'device'
  | 'event';

/** A period's totals in analytics_stats(). */
export interface AnalyticsTotals {
  visitors: number;
  visits: number;
  pageviews: number;
  /** Visits of a single page view, as a whole percentage (0–100) of all visits. */
  bounce_rate: number;
  events: number;
}

/** One row of a breakdown's top ten: a page path, referrer host ('(direct)' for none), country code… */
export interface AnalyticsTopRow {
  value: string;
  visitors: number;
  pageviews: number;
}

/** One custom event's row: how many visitors sent it, how often. */
export interface AnalyticsEventRow {
  value: string;
  visitors: number;
  events: number;
}

/** What analytics_stats() answers for one of the caller's sites. */
export interface AnalyticsStats {
  /** The range asked for; buckets are hours for a single day, days otherwise. */
  range: { from: string; to: string; bucket: 'hour' | 'day' };
  totals: AnalyticsTotals;
  /** The same totals for the equally long period just before. */
  previous: AnalyticsTotals;
  /** Every bucket of the range, `t` its start (ISO timestamp). */
  series: { t: string; visitors: number; pageviews: number }[];
  top: Record<Exclude<AnalyticsDimension, 'event'>, AnalyticsTopRow[]> & {
    event: AnalyticsEventRow[];
  };
}

/** A range of a booking form's availability: [start, end) in minutes of the local day (0–1440). */
export type BookingRange = [number, number];

/** A booking form's date override: that local date's ranges instead of the weekday's ([]: day off). */
export interface BookingOverride {
  /** YYYY-MM-DD in the form's time zone. */
  date: string;
  ranges: BookingRange[];
}

/** Where a booking stands, and who cancelled it. */
type BookingStatus = 'confirmed' | 'cancelled';
type BookingCancelledBy = 'visitor' | 'owner';

/** Filled by a trigger from the form when left out (clients never choose the owner). */
interface OwnerFromForm {
  user_id?: string;
}

type Refinements = {
  public: {
    Tables: {
      api_keys: { Row: { scope: ApiKeyScope } };
      booking_forms: {
        Row: {
          /** Seven days, Monday first: each day's ranges, sorted, not overlapping. */
          weekly: BookingRange[][];
          overrides: BookingOverride[];
          /** Set through set_booking_captcha(). */
          captcha_provider: CaptchaProvider | null;
        };
        Insert: { weekly?: BookingRange[][]; overrides?: BookingOverride[] };
        Update: { weekly?: BookingRange[][]; overrides?: BookingOverride[] };
      };
      bookings: { Row: { status: BookingStatus; cancelled_by: BookingCancelledBy | null } };
      email_deliveries: { Row: { status: DeliveryStatus } };
      entries: { Row: { notification_skipped: NotificationSkipped | null } };
      entry_files: { Row: { kind: FileKind } };
      form_uploads: {
        Row: { kinds: FileKind[] };
        Insert: OwnerFromForm & { kinds?: FileKind[] };
      };
      forms: {
        Row: {
          /** The form's CAPTCHA (null: none); set through set_form_captcha(). */
          captcha_provider: CaptchaProvider | null;
        };
      };
      form_autoresponders: { Insert: OwnerFromForm };
      newsletter_lists: {
        Row: {
          /** The signup form's CAPTCHA (null: none); set through set_list_captcha(). */
          captcha_provider: CaptchaProvider | null;
        };
      };
      form_retention: {
        Row: { mode: RetentionMode };
        Insert: OwnerFromForm & { mode: RetentionMode };
      };
      webhook_deliveries: {
        Row: { event: 'entry.created' | 'test'; status: DeliveryStatus };
      };
      webhooks: {
        Row: {
          format: WebhookFormat;
          /** Why tinyback turned it off ('failing': 50 failed attempts in a row); null if it did not. */
          disabled_reason: 'failing' | null;
        };
        /** The signing secret is drawn by the database. */
        Insert: OwnerFromForm & { secret?: string };
      };
    };
    Functions: {
      analytics_stats: {
        /** Dates inclusive, UTC; filters: breakdown values the numbers are narrowed to. */
        Args: { p_filters?: Partial<Record<AnalyticsDimension, string>> };
        /** null: the site is not the caller's. */
        Returns: AnalyticsStats | null;
      };
      analytics_shared_stats: {
        Args: { p_filters?: Partial<Record<AnalyticsDimension, string>> };
        /** What analytics_stats answers the owner, for the site a share token opens. */
        Returns: AnalyticsStats;
      };
      analytics_shared_site: {
        Args: { p_token: string };
        Returns: { name: string; domains: string[] };
      };
      analytics_share_get: {
        Args: { p_site_id: string };
        /** null: the site has no share link. */
        Returns: string | null;
      };
      booking_owner_cancel: {
        Returns: { status: 'cancelled' | 'not_found' | 'already_cancelled' };
      };
      set_booking_captcha: {
        /** null provider: off (the keys are forgotten); null secret: keep the stored one. */
        Args: {
          p_provider: CaptchaProvider | null;
          p_site_key: string | null;
          p_secret: string | null;
        };
        /** The booking form's public part, which its page uses. */
        Returns: { captcha_provider: CaptchaProvider | null; captcha_site_key: string | null };
      };
      set_list_captcha: {
        /** null provider: off (the keys are forgotten); null secret: keep the stored one. */
        Args: {
          p_provider: CaptchaProvider | null;
          p_site_key: string | null;
          p_secret: string | null;
        };
        /** The list's public part, which its signup form's code uses. */
        Returns: { captcha_provider: CaptchaProvider | null; captcha_site_key: string | null };
      };
      create_api_key: {
        Args: { p_scope: ApiKeyScope };
        /** The new key's list entry and the full key, shown this once. */
        Returns: {
          id: string;
          name: string;
          scope: ApiKeyScope;
          prefix: string;
          created_at: string;
          key: string;
        };
      };
      set_form_captcha: {
        /** null provider: off (the keys are forgotten); null secret: keep the stored one. */
        Args: {
          p_provider: CaptchaProvider | null;
          p_site_key: string | null;
          p_secret: string | null;
        };
        /** The form's public part, which the embed code uses. */
        Returns: { captcha_provider: CaptchaProvider | null; captcha_site_key: string | null };
      };
    };
  };
};

/**
 * `T` with `U`'s members put in: objects down to a row's or an RPC's Args (`depth` levels) are
 * merged member by member, anything deeper — a column, an argument, an RPC's Returns — replaced.
 */
type Merge<T, U, Depth extends unknown[] = []> = Simplify<
  Omit<T, keyof U> & {
    [K in keyof U]: K extends keyof T
      ? K extends 'Returns'
        ? U[K]
        : Depth['length'] extends 4
          ? U[K]
          : Merge<T[K], U[K], [...Depth, unknown]>
      : U[K];
  }
>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The paths of `U` that `T` lacks, down to a row's columns and an RPC's arguments. */
type UnknownPaths<T, U, Path extends string = '', Depth extends unknown[] = []> = {
  [K in keyof U & string]: K extends keyof T
    ? K extends 'Returns'
      ? never
      : Depth['length'] extends 4
        ? never
        : UnknownPaths<T[K], U[K], `${Path}.${K}`, [...Depth, unknown]>
    : `${Path}.${K}`;
}[keyof U & string];
/** Fails the type check with the path a refinement names that the generated types lack. */
type OnlyKnownPaths<Unknown extends never> = [Unknown] extends [never] ? unknown : never;

export type Database = Merge<
  Generated,
  Refinements & OnlyKnownPaths<UnknownPaths<Generated, Refinements>>
>;

type PublicSchema = Database['public'];

/** A row of a table as the site reads it. */
export type Tables<Name extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][Name]['Row'];
/** An RPC: its `Args` and what it `Returns`. */
export type Functions<Name extends keyof PublicSchema['Functions']> =
  PublicSchema['Functions'][Name];
