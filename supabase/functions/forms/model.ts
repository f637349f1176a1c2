// What the form endpoint works with, whatever stores it: a form as the endpoint reads it, a post
// as it asks storage to accept it, and storage's answers. The handler, the form cache and the
// Supabase store all speak these types; none of them depends on another for them.
import type { CaptchaProvider } from '../_shared/captcha.ts';
import type { Notification } from './notification.ts';
import type { PostSource } from './source.ts';
import type { StoredFile } from './uploads/receive.ts';
import type { UploadSettings } from './uploads/settings.ts';

export interface FormRecord {
  id: string;
  name: string;
  target_email: string;
  allowed_origin: string;
  /** The owner's thank-you page for browser posts without a usable `_next`; null: the site's. */
  redirect_url: string | null;
  /** The form's CAPTCHA (its token is verified before storing); null or absent: none. */
  captcha_provider?: CaptchaProvider | null;
  /**
   * The owner's IANA time zone, for the notification's time (null or absent: UTC). Read beside
   * the form, not part of what accept_post compares.
   */
  time_zone?: string | null;
  /** The form's file uploads (uploads/settings.ts); absent: off. Read beside the form, like the zone. */
  uploads?: UploadSettings;
}

export interface AcceptInput {
  entryId: string;
  formId: string;
  /** The form as the handler used it; storage refuses with form_changed when it is no longer so. */
  form: FormRecord;
  ipHash: string;
  name: string | null;
  email: string | null;
  message: string | null;
  data: Record<string, string | string[]>;
  /** The names of the post's fields in the order received, so the entry keeps data in that order. */
  fieldOrder: string[];
  isSpam: boolean;
  /** The e-mail to queue in the same transaction; null for spam. */
  notification: Notification | null;
  /** A repeat of this key for the form within a day stores nothing and answers as the first. */
  idempotencyKey: string | null;
  /** The post was already counted against the client's allowance (before its CAPTCHA check). */
  clientCounted: boolean;
  /** The files already in Storage, stored with the entry (null: the post took no upload path). */
  files?: readonly StoredFile[] | null;
  /** The page the post came from, as the analytics tracker told it (source.ts); absent: none. */
  source?: PostSource;
}

export type AcceptResult =
  | {
      status: 'accepted';
      entryId: string;
      deliveryId: string | null;
      /** Whether the entry queued webhook deliveries; undefined when storage cannot say. */
      webhooksQueued?: boolean;
      /** The autoresponse e-mail the entry queued, if any. */
      autoresponseId?: string | null;
      /** A repeated idempotency key: nothing stored or queued; entryId is the first post's. */
      repeated?: boolean;
      /** Why no notification was queued (`unverified`, `off`, a cap), or null when one was. */
      notificationSkipped?: string | null;
    }
  | { status: 'rate_limited'; retryAfter: number }
  /** Nothing stored: the owner's plan allows no more submissions this month (until retryAfter). */
  | { status: 'quota_exceeded'; retryAfter: number }
  | { status: 'form_not_found' }
  /** Nothing stored: the post's files do not fit in the owner's storage quota. */
  | { status: 'storage_full' }
  /** Nothing stored: the post has files and the form's uploads were turned off since it was read. */
  | { status: 'uploads_off' }
  /** Nothing stored: the form was edited since it was read; this is how it is now. */
  | { status: 'form_changed'; form: FormRecord };

export type BeginCaptchaResult =
  | { status: 'counted' }
  | { status: 'repeated'; entryId: string }
  | { status: 'rate_limited'; retryAfter: number }
  | { status: 'form_not_found' };
