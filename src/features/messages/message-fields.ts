// How a message reads: rows from the REST API checked and normalised into `Message`, and the
// texts the spec fixes for a card ('Anonymous' for a missing name, a dash for a missing e-mail;
// bidirectional controls shown as `[U+202E]` tokens, never obeyed), the visitor's custom fields in
// the order sent (a repeated name as a list), and where the notification e-mail stands.
import type { EntryFile } from '../../config/uploads';
import { visibleText } from '../../lib/visible-text';
import { isTimestamp, isUuid } from './message-query';
import type { Delivery, Message, NotificationSkipped } from './types';

const ANONYMOUS = 'Anonymous';
const NO_EMAIL = '—';

const DELIVERY_STATUSES: readonly Delivery['status'][] = ['pending', 'sending', 'sent', 'failed'];
const SKIP_REASONS: readonly NotificationSkipped[] = [
  'off',
  'unverified',
  'hourly_limit',
  'daily_limit',
];

/** A stored reason for not e-mailing, checked; null for none or one this version does not know. */
function toSkipReason(value: unknown): NotificationSkipped | null {
  return SKIP_REASONS.includes(value as NotificationSkipped)
    ? (value as NotificationSkipped)
    : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalText(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new Error(`Unexpected ${field} in a message.`);
  return value;
}

/** A delivery embed or row, checked; null for none. */
export function toDelivery(value: unknown): Delivery | null {
  // A to-one embed comes as an object, or as an array of at most one row when PostgREST does not
  // detect the unique key as one-to-one.
  const row: unknown = Array.isArray(value) ? (value[0] ?? null) : value;
  if (!isObject(row)) return null;
  const status = row.status as Delivery['status'];
  if (!DELIVERY_STATUSES.includes(status)) return null;
  return {
    status,
    attempts: typeof row.attempts === 'number' ? row.attempts : 0,
    last_error: typeof row.last_error === 'string' ? row.last_error : null,
    next_attempt_at: typeof row.next_attempt_at === 'string' ? row.next_attempt_at : '',
    sent_at: typeof row.sent_at === 'string' ? row.sent_at : null,
  };
}

const FILE_KINDS: readonly string[] = ['image', 'pdf', 'office', 'text', 'archive'];

/** One file of the files' embed, checked; null for a row this version cannot show. */
function toFile(value: unknown): EntryFile | null {
  if (!isObject(value) || !isUuid(value.id)) return null;
  const { position, name, kind, mime_type, size, object_key } = value;
  if (typeof name !== 'string' || typeof object_key !== 'string') return null;
  if (typeof mime_type !== 'string' || !FILE_KINDS.includes(kind as string)) return null;
  // bigint sizes come as numbers (files are at most 10 MiB); a string is read as one too.
  const bytes = typeof size === 'string' ? Number(size) : size;
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return null;
  return {
    id: value.id,
    position: typeof position === 'number' ? position : 0,
    name,
    kind: kind as EntryFile['kind'],
    mime_type,
    size: bytes,
    object_key,
  };
}

/** The files' embed, checked: the files that can be shown (none when the row has no embed). */
export function toFiles(value: unknown): EntryFile[] {
  if (!Array.isArray(value)) return [];
  return value.map(toFile).filter((file): file is EntryFile => file !== null);
}

/** The files' names in the order sent, as shown (bidi controls as tokens). */
export function fileNames(files: readonly Pick<EntryFile, 'name' | 'position'>[]): string[] {
  return [...files].sort((a, b) => a.position - b.position).map((file) => file.name);
}

/** A card's line for the files: "2 files: cv.pdf, photo.png". */
export function filesSummary(files: readonly Pick<EntryFile, 'name' | 'position'>[]): string {
  const count = files.length === 1 ? '1 file' : `${files.length} files`;
  return `${count}: ${fileNames(files).map(visibleText).join(', ')}`;
}

/** A stored field order, checked: a list of names, else null (none kept, or malformed). */
function toFieldOrder(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((name) => typeof name === 'string') ? value : null;
}

/**
 * A row of the REST API (or a Realtime payload) as a `Message`. Throws when the columns the
 * inbox relies on are missing or malformed, so a changed schema fails loudly, not as blank cards.
 */
export function toMessage(raw: unknown): Message {
  if (!isObject(raw)) throw new Error('Unexpected message row.');
  if (!isUuid(raw.id) || !isUuid(raw.form_id)) throw new Error('Unexpected message id.');
  if (!isTimestamp(raw.created_at)) throw new Error('Unexpected message date.');
  const form = Array.isArray(raw.form) ? raw.form[0] : raw.form;
  return {
    id: raw.id,
    form_id: raw.form_id,
    name: optionalText(raw.name, 'name'),
    email: optionalText(raw.email, 'email'),
    message: optionalText(raw.message, 'message'),
    data: isObject(raw.data) ? raw.data : {},
    field_order: toFieldOrder(raw.field_order),
    is_spam: raw.is_spam === true,
    read_at: optionalText(raw.read_at, 'read time'),
    created_at: raw.created_at,
    form: isObject(form) && typeof form.name === 'string' ? { name: form.name } : null,
    delivery: toDelivery(raw.delivery),
    files: toFiles(raw.files),
    notification_skipped: toSkipReason(raw.notification_skipped),
    source_page: optionalText(raw.source_page, 'page'),
    source_referrer: optionalText(raw.source_referrer, 'referrer'),
  };
}

/** The columns of a Realtime payload the inbox keeps (not user_id or search_text). */
export function messageColumns(raw: Record<string, unknown>): Partial<Message> {
  const keys = [
    'id',
    'form_id',
    'name',
    'email',
    'message',
    'data',
    'field_order',
    'is_spam',
    'read_at',
    'created_at',
    'notification_skipped',
    'source_page',
    'source_referrer',
  ] as const;
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (key in raw) picked[key] = raw[key];
  return picked as Partial<Message>;
}

/** The sender as the spec shows it: the name (bidi controls visible), or 'Anonymous'. */
export function senderName(message: Pick<Message, 'name'>): string {
  const name = message.name?.trim();
  return name ? visibleText(name) : ANONYMOUS;
}

/** The e-mail as the spec shows it: the address (bidi controls visible), or a dash. */
export function senderEmail(message: Pick<Message, 'email'>): string {
  const email = message.email?.trim();
  return email ? visibleText(email) : NO_EMAIL;
}

/** A `mailto:` link for replying, or null when there is no usable address. */
export function replyHref(message: Pick<Message, 'email' | 'form'>): string | null {
  const email = message.email?.trim();
  // The endpoint validates addresses; this only keeps a malformed one out of the link.
  if (!email || !/^[^\s@<>"]+@[^\s@<>"]+$/.test(email)) return null;
  const subject = `Re: your message${message.form ? ` via ${visibleText(message.form.name)}` : ''}`;
  return `mailto:${encodeURIComponent(email).replace(/%40/g, '@')}?subject=${encodeURIComponent(subject)}`;
}

/** A submitted value as text: strings as they are, anything else as JSON. */
function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

/** A custom field as the inbox shows it: a text, or a list for a name sent more than once. */
export interface CustomField {
  name: string;
  value: string | string[];
}

/** The message's fields the inbox reads field_order and data from. */
export type CustomFieldSource = Pick<Message, 'data'> & Partial<Pick<Message, 'field_order'>>;

/**
 * The names of a message's custom fields in the order the visitor sent them: those of
 * `field_order` that `data` holds (each once), then any others in the order `data` has them (all
 * of them for a message stored before the order was kept).
 */
export function fieldNames(message: CustomFieldSource): string[] {
  const names = new Set<string>();
  for (const name of message.field_order ?? []) {
    if (Object.hasOwn(message.data, name)) names.add(name);
  }
  for (const name of Object.keys(message.data)) names.add(name);
  return [...names];
}

/** A stored value for display: a list stays a list (of texts), anything else becomes a text. */
export function fieldValue(value: unknown): string | string[] {
  return Array.isArray(value) ? value.map(fieldText) : fieldText(value);
}

/** Every custom field the visitor sent, in the order sent. */
export function customFields(message: CustomFieldSource): CustomField[] {
  return fieldNames(message).map((name) => ({ name, value: fieldValue(message.data[name]) }));
}

/** A custom field's value on one line (a list's items joined by ", "), bidi controls visible. */
export function fieldSummary(value: string | string[]): string {
  return visibleText(Array.isArray(value) ? value.join(', ') : value);
}

/** What a card shows of the custom fields: the first `count` in the order sent, and how many more. */
export function fieldsPreview(
  message: CustomFieldSource,
  count = 2,
): { shown: CustomField[]; more: number } {
  const fields = customFields(message);
  return { shown: fields.slice(0, count), more: Math.max(0, fields.length - count) };
}

export type DeliveryState =
  | { kind: 'sent'; at: string | null }
  | {
      kind: 'pending';
      /** A worker holds the job right now. */
      sending: boolean;
      nextAttemptAt: string | null;
      attempts: number;
      lastError: string | null;
    }
  | { kind: 'failed'; reason: string }
  /** `unknown`: stored before the endpoint recorded why. */
  | { kind: 'none'; reason: 'spam' | NotificationSkipped | 'unknown' };

/** The message fields deliveryState reads (the reason is optional for rows read without it). */
export type DeliveryFields = Pick<Message, 'delivery' | 'is_spam'> &
  Partial<Pick<Message, 'notification_skipped'>>;

/** Where the notification e-mail of a message stands, for display. */
export function deliveryState(message: DeliveryFields): DeliveryState {
  const delivery = message.delivery;
  if (!delivery) {
    if (message.is_spam) return { kind: 'none', reason: 'spam' };
    return { kind: 'none', reason: message.notification_skipped ?? 'unknown' };
  }
  switch (delivery.status) {
    case 'sent':
      return { kind: 'sent', at: delivery.sent_at };
    case 'failed':
      return { kind: 'failed', reason: delivery.last_error ?? 'Unknown error.' };
    default:
      return {
        kind: 'pending',
        sending: delivery.status === 'sending',
        nextAttemptAt: delivery.next_attempt_at || null,
        attempts: delivery.attempts,
        lastError: delivery.last_error,
      };
  }
}

/** Whether the delivery may still change (and is worth polling). */
export function isDeliveryInFlight(message: Pick<Message, 'delivery'>): boolean {
  return message.delivery?.status === 'pending' || message.delivery?.status === 'sending';
}

/**
 * Where a message was written, when the site runs the analytics tracker: the page's path and the
 * referring host, or `null` for the referrer of a direct visit; `null` for a message without them.
 */
export function messageSource(
  message: Pick<Message, 'source_page' | 'source_referrer'>,
): { page: string; referrer: string | null } | null {
  return message.source_page
    ? { page: message.source_page, referrer: message.source_referrer ?? null }
    : null;
}
