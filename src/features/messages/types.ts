// The inbox's data as the dashboard uses it: one message (an `entries` row with its form's name,
// its notification e-mail's delivery and its files), and the filter that defines one list of
// messages.

import type { EntryFile } from '../../config/uploads';
import type { Tables } from '../../lib/database';

/** Where a message's notification e-mail stands (`email_deliveries`, at most one per entry). */
export type Delivery = Pick<
  Tables<'email_deliveries'>,
  'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'sent_at'
>;

/** Why the endpoint queued no notification e-mail for a message (`entries.notification_skipped`). */
export type { NotificationSkipped } from '../../lib/database';

/**
 * An `entries` row as the inbox shows it. `field_order`: the keys of `data` in the order they were
 * sent (null for messages stored before it was kept). `notification_skipped`: why no e-mail was
 * queued, as the endpoint recorded it (null when one was, for spam, and for older messages).
 */
export type Message = Pick<
  Tables<'entries'>,
  | 'id'
  | 'form_id'
  | 'name'
  | 'email'
  | 'message'
  | 'field_order'
  | 'is_spam'
  | 'read_at'
  | 'created_at'
  | 'notification_skipped'
> & {
  /**
   * Every other field the visitor sent (custom fields), by name: a string, or a list of strings
   * for a name sent more than once.
   */
  data: Record<string, unknown>;
  /** The form, when the reader may see it (always, for the owner). */
  form: Pick<Tables<'forms'>, 'name'> | null;
  /** `null` when no e-mail was queued: notifications off for the form, or spam. */
  delivery: Delivery | null;
  /**
   * The files sent with it (`entry_files`), in no particular order; empty for none, and until a
   * message that arrived over Realtime has been read back.
   */
  files: EntryFile[];
  /**
   * The page the form was on and the host that referred the visit, when the site runs the analytics
   * tracker (null otherwise, and a null referrer with a page is a direct visit).
   */
  source_page?: string | null;
  source_referrer?: string | null;
  /** Set on the client when the message arrived through Realtime while the inbox was open. */
  arrivedLive?: boolean;
};

export type MessageView = 'inbox' | 'spam';

/** What one list shows; part of its query key. */
export interface MessageFilter {
  /** One form's messages, or every form's when null. */
  formId: string | null;
  view: MessageView;
  /** Search term as typed (trimmed); empty for no search. */
  q: string;
  /** Only messages with at least one file. */
  files: boolean;
}

/** A keyset position: the list continues with rows strictly older than this one. */
export interface Cursor {
  created_at: string;
  id: string;
}

/** One page of a list; `next` is where the following page starts, or null at the end. */
export interface MessagePage {
  rows: Message[];
  next: Cursor | null;
}
