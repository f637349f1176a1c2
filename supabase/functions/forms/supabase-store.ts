// Storage for the endpoint: works unchanged on hosted Supabase, self-hosted Supabase and the local
// stack. The calls of every post (accept_post, begin_captcha_post, a held notification, a CAPTCHA
// secret) go over the direct database connection (_shared/database.ts), one statement and
// transaction each; the form lookup, cached a minute per form, reads REST with the service role.
// The outbox's storage is _shared/outbox/store.ts.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { RpcClient } from '../_shared/outbox/store.ts';
import type { AcceptInput, AcceptResult, BeginCaptchaResult, FormRecord } from './model.ts';
import type { Notification } from './notification.ts';
import type { SubmissionLimits } from './settings.ts';
import { planFromRow, type NamedEntry } from './uploads/direct.ts';
import { uploadSettings } from './uploads/settings.ts';

/** Exactly the columns accept_post compares, in the shape it builds them. */
function formRow(form: FormRecord): FormRecord {
  return {
    id: form.id,
    name: form.name,
    target_email: form.target_email,
    allowed_origin: form.allowed_origin,
    redirect_url: form.redirect_url ?? null,
    captcha_provider: form.captcha_provider ?? null,
  };
}

/**
 * The owner's time zone (form_owner_time_zone(), 20261202100000_owner_time_zone.sql), read beside
 * the form. Never fails the post: a database without the function, or any error, means UTC.
 */
async function ownerTimeZone(client: SupabaseClient, formId: string): Promise<string | null> {
  try {
    const { data, error } = await client.rpc('form_owner_time_zone', { p_form_id: formId });
    return !error && typeof data === 'string' ? data : null;
  } catch {
    return null;
  }
}

/**
 * `rest`: the service-role supabase-js client; `db`: the direct connection. `limits`: the caps
 * passed to accept_submission (settings.ts; LIMITS unless lifted for tests).
 */
export function createFormStore(
  { rest, db }: { rest: SupabaseClient; db: RpcClient },
  limits: SubmissionLimits,
) {
  return {
    async loadForm(id: string): Promise<FormRecord | null> {
      const [{ data, error }, timeZone] = await Promise.all([
        rest
          .from('forms')
          .select(
            'id, name, target_email, allowed_origin, redirect_url, captcha_provider, form_uploads(enabled, kinds, max_file_bytes, max_total_bytes, max_files)',
          )
          .eq('id', id)
          .maybeSingle(),
        ownerTimeZone(rest, id),
      ]);
      if (error) throw new Error(`forms lookup: ${error.message}`);
      if (!data) return null;
      // One-to-one (form_uploads' key is the form's id): PostgREST embeds an object or null.
      const { form_uploads: uploads, ...form } = data as unknown as FormRecord & {
        form_uploads: Record<string, unknown> | null;
      };
      return { ...formRow(form), time_zone: timeZone, uploads: uploadSettings(uploads) };
    },

    // One call per post: accept_post checks that the form is still as the handler saw it (else it
    // answers form_changed with the current form) and accepts in the same transaction.
    async accept(input: AcceptInput): Promise<AcceptResult> {
      const n = input.notification;
      const { data, error } = await db.rpc('accept_post', {
        p_seen: formRow(input.form),
        p_entry_id: input.entryId,
        p_form_id: input.formId,
        p_ip_hash: input.ipHash,
        p_name: input.name,
        p_email: input.email,
        p_message: input.message,
        p_data: input.data,
        p_is_spam: input.isSpam,
        p_notification: n
          ? { subject: n.subject, reply_to: n.replyTo, text: n.text, html: n.html }
          : null,
        p_per_minute: limits.perMinute,
        p_per_day: limits.perDay,
        p_form_per_minute: limits.formPerMinute,
        p_account_per_hour: limits.accountPerHour,
        p_account_per_day: limits.accountPerDay,
        p_idempotency_key: input.idempotencyKey,
        p_client_counted: input.clientCounted,
        p_field_order: input.fieldOrder,
        p_source_site_id: input.source?.siteId ?? null,
        p_source_page: input.source?.page ?? null,
        p_source_referrer: input.source?.referrer ?? null,
        ...(input.files && {
          p_files: input.files.map((f) => ({
            position: f.position,
            object_key: f.objectKey,
            name: f.name,
            kind: f.kind,
            mime_type: f.mimeType,
            size: f.size,
          })),
        }),
      });
      if (error) throw new Error(`accept_post: ${error.message}`);
      const result = data as {
        status: string;
        entry_id?: string;
        delivery_id?: string | null;
        webhooks_queued?: boolean;
        autoresponse_id?: string | null;
        repeated?: boolean;
        retry_after?: number;
        form?: FormRecord;
        notification_skipped?: string | null;
      };
      if (result.status === 'accepted' && result.entry_id) {
        return {
          status: 'accepted',
          entryId: result.entry_id,
          deliveryId: result.delivery_id ?? null,
          // Absent from a database without 20261124190000: unknown, so the handler asks anyway.
          webhooksQueued:
            typeof result.webhooks_queued === 'boolean' ? result.webhooks_queued : undefined,
          autoresponseId: result.autoresponse_id ?? null,
          repeated: result.repeated === true,
          notificationSkipped:
            typeof result.notification_skipped === 'string' ? result.notification_skipped : null,
        };
      }
      if (result.status === 'rate_limited')
        return { status: 'rate_limited', retryAfter: Number(result.retry_after) };
      if (result.status === 'quota_exceeded')
        return { status: 'quota_exceeded', retryAfter: Number(result.retry_after) };
      if (result.status === 'form_not_found') return { status: 'form_not_found' };
      if (result.status === 'storage_full') return { status: 'storage_full' };
      if (result.status === 'uploads_off') return { status: 'uploads_off' };
      // The owner (and so the zone) of a form never changes: the seen form's zone carries over.
      if (result.status === 'form_changed' && result.form)
        return {
          status: 'form_changed',
          form: {
            ...formRow(result.form),
            time_zone: input.form.time_zone ?? null,
            // Read with the form: an edit to them is seen at the next fresh read.
            uploads: input.form.uploads,
          },
        };
      throw new Error(`accept_post: unexpected answer ${JSON.stringify(result)}`);
    },

    // Before a post's first file is written: the entry is recorded for the sweep (should it never
    // be stored); answers the owner and the bytes their storage has left (null: no quota).
    // A direct upload also records the files announced and how long their URLs stay open.
    async beginUploads(
      entryId: string,
      formId: string,
      files?: readonly Record<string, unknown>[],
      openSeconds?: number,
    ): Promise<{ userId: string; storageLeft: number | null }> {
      const { data, error } = await db.rpc('begin_uploads', {
        p_entry_id: entryId,
        p_form_id: formId,
        ...(files && { p_files: files, p_open_seconds: openSeconds ?? 0 }),
      });
      if (error) throw new Error(`begin_uploads: ${error.message}`);
      const result = data as { user_id: string; storage_left: number | string | null };
      return {
        userId: result.user_id,
        storageLeft: result.storage_left === null ? null : Number(result.storage_left),
      };
    },

    // A post naming a direct upload's entry: stored already, pending for this form, or unknown.
    async namedEntry(entryId: string, formId: string): Promise<NamedEntry> {
      const { data, error } = await db.rpc('direct_upload_entry', {
        p_entry_id: entryId,
        p_form_id: formId,
      });
      if (error) throw new Error(`direct_upload_entry: ${error.message}`);
      const result = data as {
        status: string;
        has_files?: boolean;
        user_id?: string;
        files?: unknown;
        storage_left?: number | string | null;
      };
      if (result.status === 'stored')
        return { status: 'stored', hasFiles: result.has_files === true };
      if (result.status === 'pending' && result.user_id)
        return {
          status: 'pending',
          userId: result.user_id,
          files: planFromRow(result.files),
          storageLeft: result.storage_left == null ? null : Number(result.storage_left),
        };
      return { status: 'unknown' };
    },

    // A form with CAPTCHA: the post is counted (or found to be a repeat) before its token is checked.
    async beginCaptchaPost(input: {
      formId: string;
      ipHash: string;
      idempotencyKey: string | null;
    }): Promise<BeginCaptchaResult> {
      const { data, error } = await db.rpc('begin_captcha_post', {
        p_form_id: input.formId,
        p_ip_hash: input.ipHash,
        p_idempotency_key: input.idempotencyKey,
        p_per_minute: limits.perMinute,
        p_per_day: limits.perDay,
      });
      if (error) throw new Error(`begin_captcha_post: ${error.message}`);
      const result = data as { status: string; entry_id?: string; retry_after?: number };
      if (result.status === 'counted') return { status: 'counted' };
      if (result.status === 'accepted' && result.entry_id)
        return { status: 'repeated', entryId: result.entry_id };
      if (result.status === 'rate_limited')
        return { status: 'rate_limited', retryAfter: Number(result.retry_after) };
      if (result.status === 'form_not_found') return { status: 'form_not_found' };
      throw new Error(`begin_captcha_post: unexpected answer ${JSON.stringify(result)}`);
    },
  };
}

/** A form's CAPTCHA secret (form_captcha_secret(), for the service role only), or null. */
export async function loadCaptchaSecret(client: RpcClient, formId: string): Promise<string | null> {
  const { data, error } = await client.rpc('form_captcha_secret', { p_form_id: formId });
  if (error) throw new Error(`form_captcha_secret: ${error.message}`);
  return typeof data === 'string' ? data : null;
}

/**
 * Keeps the notification of an entry stored while its form's target was unconfirmed
 * (hold_notification(), 20261204100000_held_notifications_confirm_details.sql), for the owner to
 * send once it is confirmed.
 */
export async function holdNotification(
  client: RpcClient,
  entryId: string,
  n: Notification,
): Promise<void> {
  const { error } = await client.rpc('hold_notification', {
    p_entry_id: entryId,
    p_notification: { subject: n.subject, reply_to: n.replyTo, text: n.text, html: n.html },
  });
  if (error) throw new Error(`hold_notification: ${error.message}`);
}
